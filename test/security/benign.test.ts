/**
 * The benign side of issue 11's corpus: everyday commands still run without asking when "execute
 * safe commands" is on. Judged by the policy with realistic settings, and a few run for real
 * through the production CLI. Prints the count allowed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENIGN_COMMANDS, PROJECT_ALLOW_LIST, type BenignCommand } from "./benign-commands";
import { buildTemplate, newMarker, type Sandbox } from "./corpus/fixture";
import { CommandJudge, type Judged } from "./corpus/policy";

const SAFE = { approve: ["command-safe"] } as const;

let dir: string;
let box: Sandbox;
let judge: CommandJudge;
const verdicts = new Map<BenignCommand, Judged>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-benign-"));
  box = await buildTemplate(dir, newMarker());
  judge = await CommandJudge.create(box.ws);
});

afterAll(async () => {
  judge?.dispose();
  console.log(benignSummary());
  if (dir) await rm(dir, { recursive: true, force: true });
});

function commandLine(entry: BenignCommand): string {
  return entry.command.replaceAll("{ws}", box.ws);
}

describe("everyday commands run without asking with 'execute safe commands' on", () => {
  for (const entry of BENIGN_COMMANDS) {
    it(`${entry.profile}: ${entry.command}`, async () => {
      const allowList = entry.profile === "project list" ? PROJECT_ALLOW_LIST : [];
      const verdict = await judge.judge(commandLine(entry), SAFE, allowList);
      verdicts.set(entry, verdict);
      expect(verdict, `${entry.command} should run without asking`).toEqual({ outcome: "allowed", reason: "" });
    });
  }
});

function benignSummary(): string {
  const lines = ["", "Benign commands allowed without asking (execute safe commands on):"];
  for (const profile of ["built-in list", "project list"] as const) {
    const entries = BENIGN_COMMANDS.filter((e) => e.profile === profile);
    const allowed = entries.filter((e) => verdicts.get(e)?.outcome === "allowed").length;
    lines.push(`  ${profile.padEnd(14)} ${allowed} / ${entries.length}`);
  }
  const total = [...verdicts.values()].filter((v) => v.outcome === "allowed").length;
  lines.push(`  ${"total".padEnd(14)} ${total} / ${BENIGN_COMMANDS.length}`);
  const real = BENIGN_COMMANDS.filter((e) => e.runInCli).length;
  lines.push(`  ${real} of them also run for real through the CLI: the corpus's controls (benign-*, test/security/corpus.test.ts)`);
  for (const [entry, verdict] of verdicts) {
    if (verdict.outcome !== "allowed") lines.push(`  ${verdict.outcome}: ${entry.command}${verdict.reason ? ` (${verdict.reason})` : ""}`);
  }
  return lines.join("\n");
}
