/**
 * The focus chain through the bundled CLI: the checklist the model writes in task_progress is
 * printed each time it changes, the reminder reaches the request after six without an update,
 * and --no-focus-chain leaves it out of the prompt.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const read = (progress?: string): ScriptTurn => ({ text: `<read_file>\n<path>notes.txt</path>\n${progress ? `<task_progress>\n${progress}\n</task_progress>\n` : ""}</read_file>` });
const done = (progress?: string): ScriptTurn => ({ text: `<attempt_completion>\n<result>done</result>\n${progress ? `<task_progress>\n${progress}\n</task_progress>\n` : ""}</attempt_completion>` });
const lastMessage = (request: RecordedRequest | undefined) => JSON.stringify((request?.body.messages as unknown[] | undefined)?.at(-1) ?? "");
const system = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.system ?? "");

async function run(args: string[], turns: ScriptTurn[]) {
  const ws = await cli.workspace();
  await writeFile(join(ws, "notes.txt"), "NOTES\n");
  const before = (await cli.requests()).length;
  await cli.script(turns);
  const result = await cli.run(["--cwd", ws, "--no-storage", ...args, "Summarise the notes"], { killAfterMs: 40_000 });
  await cli.dropScript();
  return { ...result, requests: (await cli.requests()).slice(before) };
}

describe("tandem with the focus chain", { timeout: 60_000 }, () => {
  it("prints the checklist when it changes, and the 8th request carries the reminder after 6 without an update", async () => {
    const turns = [read("- [ ] Read the notes\n- [ ] Report"), read(), read(), read(), read(), read(), read(), done("- [x] Read the notes\n- [x] Report")];
    const r = await run([], turns);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests).toHaveLength(8);
    expect(system(r.requests[0])).toContain("TASK PROGRESS");
    expect(r.stdout).toContain("checklist 0/2:\n  [ ] Read the notes\n  [ ] Report\n");
    expect(r.stdout).toContain("checklist 2/2:\n  [x] Read the notes\n  [x] Report\n");
    expect(r.stdout.match(/^checklist /gm)).toHaveLength(2);
    for (const request of r.requests.slice(0, 7)) expect(lastMessage(request)).not.toContain("focus_chain_reminder");
    expect(lastMessage(r.requests[7])).toContain("<focus_chain_reminder>");
    expect(lastMessage(r.requests[7])).toContain("The checklist has not been updated for 6 requests");
  });

  it("--no-focus-chain leaves it out of the prompt and prints no checklist", async () => {
    const r = await run(["--no-focus-chain"], [read("- [ ] Read the notes"), done()]);
    expect(r.code, r.stderr).toBe(0);
    expect(system(r.requests[0])).not.toContain("TASK PROGRESS");
    expect(r.stdout).not.toContain("checklist");
  });
});
