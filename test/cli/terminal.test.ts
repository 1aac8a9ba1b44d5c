/**
 * The CLI at a real terminal (a tmux pane): each question is asked once and its answer goes to
 * it, a command still running offers wait / background / stop, a question the task takes back
 * ends its prompt, and Ctrl-C at a prompt cancels.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";
import { openTerminal, type Terminal } from "./tmux";

let cli: CliHarness;
let terminal: Terminal | undefined;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  await cli.dropScript();
});

afterAll(async () => {
  await cli?.close();
});

const APPROVE = /\[y\]es \/ \[n\]o/;
const DONE = /Done\? Press Enter/;
const completion = { text: "<attempt_completion>\n<result>All done.</result>\n</attempt_completion>" };
const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n</execute_command>` });

async function tandem(workspace: string, ...args: string[]): Promise<Terminal> {
  terminal = await openTerminal(cli.dir, [process.execPath, cli.cliPath, "--cwd", workspace, ...args], cli.env);
  return terminal;
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, "g"))?.length ?? 0;

// Each test runs the CLI (and commands that sleep) several times: generous on a busy machine.
describe("tandem at a terminal", { timeout: 60_000 }, () => {
  it("asks each question once, and the last one too", async () => {
    const workspace = await cli.workspace();
    await cli.script([{ text: "<write_to_file>\n<path>a.txt</path>\n<content>alpha</content>\n</write_to_file>" }, completion]);
    const term = await tandem(workspace, "Write a.txt");
    await term.waitFor(APPROVE);
    await term.send("y", "Enter");
    await term.waitFor(DONE);
    await term.send("Enter");
    expect(await term.exitCode()).toBe(0);
    const screen = await term.screen();
    expect(count(screen, APPROVE)).toBe(1);
    expect(count(screen, /\? approve write_to_file a\.txt/)).toBe(1);
    expect(existsSync(join(workspace, "a.txt"))).toBe(true);
  });

  it("offers the result's command: Enter skips it and the task completes, nothing sent back", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([{ text: "<attempt_completion>\n<result>Built.</result>\n<command>touch demo-ran</command>\n</attempt_completion>" }]);
    const term = await tandem(workspace, "Build it");
    await term.waitFor(/Run it\? \[y\]es \/ Enter to skip/);
    await term.send("Enter");
    await term.waitFor(DONE);
    await term.send("Enter");
    expect(await term.exitCode()).toBe(0);
    expect(existsSync(join(workspace, "demo-ran"))).toBe(false);
    expect((await cli.requests()).length - before).toBe(1);
  });

  it("ends the 'still running' prompt when the command ends, and goes on to the next question", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([command("sleep 4 && echo done"), completion]);
    const term = await tandem(workspace, "Wait for it");
    await term.waitFor(APPROVE);
    await term.send("y", "Enter");
    await term.waitFor(/\[w\]ait for it/);
    // Nobody answers: the command ends, the question is taken back, and the next prompt is live.
    await term.waitFor(/The command ended: no need to answer/);
    await term.waitFor(DONE);
    await term.send("Enter");
    expect(await term.exitCode()).toBe(0);
    const toModel = requestText((await cli.requests())[before + 1]!);
    expect(toModel).toContain("The command exited with code 0.");
    expect(toModel).toContain("done");
  });

  it("stops a running command at the person's word", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([command("sleep 30"), completion]);
    const term = await tandem(workspace, "Sleep");
    await term.waitFor(APPROVE);
    await term.send("y", "Enter");
    await term.waitFor(/\[w\]ait for it/);
    await term.send("s", "Enter");
    await term.waitFor(DONE);
    await term.send("Enter");
    expect(await term.exitCode()).toBe(0);
    expect(requestText((await cli.requests())[before + 1]!)).toContain("The person stopped the command while it was running.");
  });

  it("lets a running command go on in the background", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([command("sleep 5 && echo later"), completion]);
    const term = await tandem(workspace, "Serve");
    await term.waitFor(APPROVE);
    await term.send("y", "Enter");
    await term.waitFor(/\[w\]ait for it/);
    await term.send("b", "Enter");
    await term.waitFor(DONE);
    expect(requestText((await cli.requests())[before + 1]!)).toContain("still running in the background");
    await term.send("Enter");
    expect(await term.exitCode()).toBe(0);
  });

  it("cancels on Ctrl-C at a prompt and exits 130", async () => {
    const workspace = await cli.workspace();
    await cli.script([command("touch never.txt")]);
    const term = await tandem(workspace, "Touch");
    await term.waitFor(APPROVE);
    await term.send("C-c");
    expect(await term.exitCode()).toBe(130);
    expect(existsSync(join(workspace, "never.txt"))).toBe(false);
  });
});
