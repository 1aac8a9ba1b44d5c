/**
 * The prompt cache's side of cost, through the shipped CLI bundle: a task that reads a file,
 * reads it again unchanged, edits it and reads it once more sends a conversation that is only
 * appended to (every request begins with the one before, byte for byte, breakpoints aside), and a
 * system prompt that does not change from one request to the next.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurn } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const FILE = `${"alpha line\n".repeat(60)}ALPHA-END\n`;
const read: ScriptTurn = { text: "<read_file>\n<path>a.txt</path>\n</read_file>" };
const edit: ScriptTurn = { text: "<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\nALPHA-END\n=======\nALPHA-DONE\n+++++++ REPLACE\n</diff>\n</replace_in_file>" };
const done: ScriptTurn = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const withoutBreakpoints = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "")) as unknown[];

describe("the conversation the CLI sends", { timeout: 40_000 }, () => {
  it("is only appended to, with one system prompt, across reads, a re-read, an edit and a read after it", async () => {
    const ws = await cli.workspace();
    await writeFile(join(ws, "a.txt"), FILE);
    const before = (await cli.requests()).length;
    await cli.script([read, read, edit, read, done]);
    const r = await cli.run(["--cwd", ws, "--no-checkpoints", "--auto-approve", "edit", "Read a.txt, edit it, read it again"]);
    expect(r.code, r.stderr).toBe(0);
    const requests = (await cli.requests()).slice(before).filter((q) => q.turnIndex >= 0);
    expect(requests).toHaveLength(5);
    const systems = new Set(requests.map((q) => JSON.stringify(withoutBreakpoints(q.body.system))));
    expect(systems.size).toBe(1);
    for (let i = 1; i < requests.length; i++) {
      const previous = withoutBreakpoints(requests[i - 1]?.body.messages);
      expect(withoutBreakpoints(requests[i]?.body.messages).slice(0, previous.length), `request ${i + 1}`).toEqual(previous);
    }
    const last = JSON.stringify(requests.at(-1)?.body.messages);
    expect(last).toContain("a.txt is unchanged since your read of it in request 1");
    expect(last).toContain("The rest of the file is as your read of it in request 1 shows");
    expect(last).toContain("ALPHA-DONE");
  });
});
