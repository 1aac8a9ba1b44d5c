/**
 * Runs the whole corpus: CLI cases a few at a time (each is a process with its own model server,
 * sandbox and HOME), policy cases in-process. A case whose run itself breaks gets an "other"
 * outcome that names the error, so it fails on its own instead of stopping the corpus.
 */
import { errorText } from "../../../src/core/util/error-text";
import type { CorpusCli } from "./cli-runner";
import type { Sandbox } from "./fixture";
import type { CommandJudge } from "./policy";
import type { CaseResult, PolicyCase, SecurityCase } from "./types";

export interface CorpusRunners {
  readonly cli: CorpusCli;
  readonly judge: CommandJudge;
  readonly template: Sandbox;
  readonly marker: string;
}

export async function runCorpus(cases: readonly SecurityCase[], runners: CorpusRunners, lanes: number): Promise<Map<string, CaseResult>> {
  const results = new Map<string, CaseResult>();
  for (const c of cases) if (c.run === "policy") results.set(c.id, await judgeCase(c, runners.judge));
  const queue = cases.filter((c) => c.run === "cli");
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const started = Date.now();
      const result = await runners.cli.runCase(c, runners.template, runners.marker).catch(
        (error: unknown): CaseResult => ({ id: c.id, observed: `other: the runner failed: ${errorText(error)}`, violations: [], detail: "" }),
      );
      results.set(c.id, { ...result, ms: Date.now() - started });
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

async function judgeCase(c: PolicyCase, judge: CommandJudge): Promise<CaseResult> {
  try {
    const verdict = await judge.judge(c.command, c.mode);
    return { id: c.id, observed: verdict.outcome, violations: [], detail: `policy: ${verdict.reason || "(no reason)"}` };
  } catch (error) {
    return { id: c.id, observed: `other: the policy threw: ${errorText(error)}`, violations: [], detail: "" };
  }
}
