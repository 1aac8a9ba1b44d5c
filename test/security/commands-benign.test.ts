/**
 * The benign side, judged by the approval wiring itself: with "execute safe commands" on, every
 * everyday command of `benign-commands.ts` runs without a question, in a workspace that has the
 * files they name. Prints the count (`npx vitest run test/security/commands-benign.test.ts`).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideApproval } from "../../src/core/task/auto-approval";
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from "../../src/shared/settings";
import { BENIGN_COMMANDS, PROJECT_ALLOW_LIST } from "./benign-commands";

let ws: string;

beforeAll(async () => {
  ws = await mkdtemp(path.join(tmpdir(), "tandem-benign-"));
  await mkdir(path.join(ws, "src"));
  for (const file of ["README.md", "package.json", "names.txt", "data.csv", "src/index.ts", "src/util.ts"]) await writeFile(path.join(ws, file), "x\n");
});
afterAll(() => rm(ws, { recursive: true, force: true }));

function settingsFor(profile: string): AgentSettings {
  return {
    ...DEFAULT_AGENT_SETTINGS,
    autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, executeSafeCommands: true },
    commandAllowList: profile === "project list" ? [...PROJECT_ALLOW_LIST] : [],
  };
}

async function verdictOf(command: string, profile: string): Promise<string> {
  const line = command.replaceAll("{ws}", ws);
  const request = { category: "command" as const, command: line, message: { tool: "execute_command" as const, content: line } };
  const verdict = await decideApproval(request, settingsFor(profile), { cwd: ws, ignore: { isIgnored: () => false } });
  return verdict.verdict === "auto" ? "auto" : `${verdict.verdict}: ${"reason" in verdict ? verdict.reason : (verdict.note ?? "")}`;
}

describe("the benign side", () => {
  it("runs every everyday command without asking when safe commands are auto-approved", async () => {
    const asked: string[] = [];
    for (const { command, profile } of BENIGN_COMMANDS) {
      const verdict = await verdictOf(command, profile);
      if (verdict !== "auto") asked.push(`${command} -> ${verdict}`);
    }
    console.log(`benign commands run without asking: ${BENIGN_COMMANDS.length - asked.length}/${BENIGN_COMMANDS.length}`);
    expect(asked).toEqual([]);
  });
});
