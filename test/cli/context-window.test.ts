/**
 * The context window through the bundled CLI: `--context-window N` sets the window, and once the
 * reported usage passes the limit the conversation is condensed (the summary request, then the
 * task goes on from the summary); `--no-auto-condense` drops the oldest rounds instead.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/api/model-info";
import { contextLimit } from "../../src/core/context/context-window";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const WINDOW = 20_000;
const LIMIT = contextLimit(resolveModel("anthropic", undefined, WINDOW).info);
const read = (path: string, inputTokens = 100): ScriptTurn => ({ text: `<read_file>\n<path>${path}</path>\n</read_file>`, usage: { inputTokens, outputTokens: 20 } });
const done: ScriptTurn = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const messages = (request: RecordedRequest | undefined) => (request?.body.messages ?? []) as unknown[];

async function run(args: string[], turns: ScriptTurn[]) {
  const ws = await cli.workspace();
  await writeFile(join(ws, "a.txt"), `${"alpha\n".repeat(50)}ALPHA-END\n`);
  await writeFile(join(ws, "b.txt"), `${"beta\n".repeat(50)}BETA-END\n`);
  const before = (await cli.requests()).length;
  await cli.script(turns);
  const result = await cli.run(["--cwd", ws, "--no-checkpoints", ...args, "Read both files"], { killAfterMs: 40_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before) };
}

describe("tandem near the context window's end", { timeout: 60_000 }, () => {
  it("condenses once usage passes the limit of --context-window, and completes", async () => {
    const summary: ScriptTurn = { text: "CLI-SUMMARY: both files read.", usage: { inputTokens: 500, outputTokens: 20 } };
    const r = await run(["--context-window", String(WINDOW)], [read("a.txt"), read("b.txt", LIMIT + 100), summary, done]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests).toHaveLength(4);
    expect(JSON.stringify(r.requests[2]?.body.system)).toContain("You condense the conversation");
    expect(requestText(r.requests[3] as RecordedRequest)).toContain("CLI-SUMMARY");
    expect(requestText(r.requests[3] as RecordedRequest)).not.toContain("ALPHA-END");
    expect(r.stdout).toMatch(/context condensed: \d+ → \d+ tokens\n {2}CLI-SUMMARY: both files read\./);
  });

  it("with --no-auto-condense drops the oldest rounds instead, before the request", async () => {
    const r = await run(["--context-window", String(WINDOW), "--no-auto-condense"], [read("a.txt"), read("b.txt", LIMIT + 100), done]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests).toHaveLength(3);
    expect(messages(r.requests[1])).toHaveLength(3);
    expect(messages(r.requests[2])).toHaveLength(3);
    expect(requestText(r.requests[2] as RecordedRequest)).not.toContain("ALPHA-END");
    expect(r.stdout).toContain("context_truncated: The conversation neared the model's context window: the 2 oldest messages");
  });

  it("refuses a --context-window that is not a number of tokens", async () => {
    const r = await cli.run(["--context-window", "lots", "go"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("--context-window takes a whole number of tokens");
  });
});
