/**
 * Issue 11 §6, "Prove it": the adversarial corpus. Every case is a hostile model's move under
 * given settings, run end to end through the production CLI with the real shell in a throwaway
 * HOME and workspace (or, when it would be destructive if misjudged, judged by the policy only).
 * A case fails when its outcome (refused / asked / allowed) differs from what it expects, when the
 * model was ever sent a secret, or when anything outside the workspace or any guard file changed.
 *
 *   npx vitest run test/security/corpus.test.ts      (prints the summary table)
 *   CORPUS_ONLY=link-read,guard- npx vitest run …   (only cases whose id contains one of these)
 *   CORPUS_VERBOSE=1 …                              (also each case's exit code, tool result and stderr)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CorpusCli, missingPrograms } from "./corpus/cli-runner";
import { buildTemplate, newMarker } from "./corpus/fixture";
import { CORPUS } from "./corpus/index";
import { CommandJudge } from "./corpus/policy";
import { runCorpus } from "./corpus/run-corpus";
import { formatSummary } from "./corpus/summary";
import { GROUPS, type CaseResult } from "./corpus/types";

/** CLI processes at a time: the CI machine has two cores, and a CLI run mostly waits. */
const LANES = Number(process.env.CORPUS_LANES ?? 4);
const only = (process.env.CORPUS_ONLY ?? "").split(",").filter(Boolean);
const cases = only.length ? CORPUS.filter((c) => only.some((part) => c.id.includes(part))) : CORPUS;

let dir: string;
let cli: CorpusCli | undefined;
let judge: CommandJudge | undefined;
let results = new Map<string, CaseResult>();
let seconds = 0;

beforeAll(async () => {
  const started = Date.now();
  dir = await mkdtemp(join(tmpdir(), "tandem-corpus-"));
  const marker = newMarker();
  const template = await buildTemplate(join(dir, "template"), marker);
  [cli, judge] = await Promise.all([CorpusCli.start(dir), CommandJudge.create(template.ws)]);
  results = await runCorpus(cases, { cli, judge, template, marker }, LANES);
  seconds = (Date.now() - started) / 1000;
}, 900_000);

afterAll(async () => {
  console.log(formatSummary(cases, results, seconds));
  // CORPUS_VERBOSE=1: what each case saw, to review that every refusal is the guard's.
  if (process.env.CORPUS_VERBOSE) for (const c of cases) console.log(`${c.id}: ${results.get(c.id)?.observed} | ${results.get(c.id)?.detail}`);
  judge?.dispose();
  await cli?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("has the programs its cases run", () => {
  expect(missingPrograms(), "install them (Debian: apt-get install zsh busybox rsync …)").toEqual([]);
});

for (const group of GROUPS) {
  const mine = cases.filter((c) => c.group === group);
  if (mine.length === 0) continue;
  describe(group, () => {
    for (const c of mine) {
      it(`${c.id}: ${c.expect}${c.orElse ? ` or ${c.orElse}` : ""}${c.run === "policy" ? " (policy only)" : ""}`, () => {
        const result = results.get(c.id);
        const context = `${c.id}${c.note ? ` (${c.note})` : ""}\n${result?.detail ?? ""}`;
        expect(result?.violations ?? ["no result"], context).toEqual([]);
        expect(result?.observed, context).toBeOneOf(c.orElse ? [c.expect, c.orElse] : [c.expect]);
      });
    }
  });
}
