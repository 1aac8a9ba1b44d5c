/**
 * Spend through the shipped CLI bundle: the first request's cost is printed before it goes, and
 * unattended, a task at its --max-requests or --max-cost cap stops with exit code 4 after the
 * request that reached it; bad caps are usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurn } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

/** A read-only round costing `inputTokens` of input at Sonnet 5.5's $2 per million. */
const round = (inputTokens: number): ScriptTurn => ({ text: "<list_files>\n<path>.</path>\n</list_files>", usage: { inputTokens, outputTokens: 0 } });

async function run(args: string[], turns: ScriptTurn[]) {
  const before = (await cli.requests()).length;
  await cli.script(turns);
  const result = await cli.run(["--cwd", await cli.workspace(), "--no-checkpoints", ...args, "List the folder again and again"], { killAfterMs: 30_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before).filter((r) => r.turnIndex >= 0).length };
}

describe("tandem's spending caps", { timeout: 40_000 }, () => {
  it("--max-requests 3: stops after the third request with exit code 4, saying why", async () => {
    const r = await run(["--max-requests", "3"], Array.from({ length: 8 }, () => round(100)));
    expect(r.code, r.stderr).toBe(4);
    expect(r.requests).toBe(3);
    expect(r.stdout + r.stderr).toContain("The task has spent 3 of its 3 requests.");
  });

  it("--max-cost: stops after the request that reached the cap", async () => {
    // 100K input tokens a round at $2 per million: $0.20 each; the cap $0.50 is reached by the third.
    const r = await run(["--max-cost", "$0.50"], Array.from({ length: 8 }, () => round(100_000)));
    expect(r.code, r.stderr).toBe(4);
    expect(r.requests).toBe(3);
  });

  it("refuses a cap that is not a number, before anything runs", async () => {
    const bad = await cli.run(["--max-cost", "lots", "hi"]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--max-cost takes US dollars, such as 2.50; got "lots".');
    expect((await cli.run(["--max-requests", "2.5", "hi"])).stderr).toContain("--max-requests takes a whole number of requests");
  });
});

describe("the first request's cost, before it goes", { timeout: 40_000 }, () => {
  it("is printed before the request's own line, near what the server was sent, priced as Sonnet 5.5's cache writes", async () => {
    const r = await run(["--max-requests", "2"], [round(100), { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" }]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    const estimated = lines.findIndex((line) => line.startsWith("[request] estimate:"));
    const first = lines.findIndex((line) => line.startsWith("[request] in "));
    expect(estimated, r.stdout).toBeGreaterThanOrEqual(0);
    expect(estimated).toBeLessThan(first);
    const [, tokens, cost] = /^\[request\] estimate: ~(\d+) tokens in, \$(\d+\.\d{4}) before its answer$/.exec(lines[estimated] ?? "") ?? [];
    const sent = JSON.stringify((await cli.requests()).filter((q) => q.turnIndex >= 0).at(-2)?.body).length / 4;
    expect(Number(tokens)).toBeGreaterThan(sent * 0.8);
    expect(Number(tokens)).toBeLessThan(sent * 1.2);
    expect(Number(cost)).toBeCloseTo((Number(tokens) * 2.5) / 1e6, 4);
    expect(lines.filter((line) => line.startsWith("[request] estimate:"))).toHaveLength(1);
  });
});
