/**
 * The CLI without a person at the keyboard (stdin is not a terminal), as CI runs it: long
 * commands run to their end, a relative --cwd works, YOLO hands over to a new task, and without
 * YOLO the refusals are announced and end the run with their own exit code.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

const completion = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const command = (line: string, timeout?: number) => ({
  text: `<execute_command>\n<command>${line}</command>\n${timeout ? `<timeout>${timeout}</timeout>\n` : ""}</execute_command>`,
});

// Each test runs the CLI (and commands that sleep) several times: generous on a busy machine.
describe("tandem without a terminal", { timeout: 60_000 }, () => {
  it("lets a command run past the 'still running' question to its end with --yolo", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([command("sleep 4 && echo done", 60), completion("Waited.")]);
    const result = await cli.run(["--yolo", "--cwd", workspace, "Wait for it"], { killAfterMs: 20_000 });
    expect(result.code).toBe(0);
    const toModel = requestText((await cli.requests())[before + 1]!);
    expect(toModel).toContain("The command exited with code 0.");
    expect(toModel).toContain("done");
    expect(toModel).not.toContain("stopped the command");
  });

  it("runs commands in a relative --cwd, and refuses a folder that does not exist", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([command("pwd"), completion("Printed it.")]);
    const result = await cli.run(["--yolo", "--cwd", basename(workspace), "Where am I?"], { cwd: cli.dir });
    expect(result.stderr).not.toMatch(/absolute path/);
    expect(result.code).toBe(0);
    const toModel = requestText((await cli.requests())[before + 1]!);
    expect(toModel).toContain("The command exited with code 0.");
    expect(toModel).toContain(workspace);

    const missing = await cli.run(["--yolo", "--cwd", "no-such-folder", "Anything"], { cwd: cli.dir });
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain(`--cwd ${join(cli.dir, "no-such-folder")}: no such folder`);
  });

  it("hands over to a new task with --yolo", async () => {
    const workspace = await cli.workspace();
    const before = (await cli.requests()).length;
    await cli.script([{ text: "<new_task>\n<context>Goal: carry on with the list.</context>\n</new_task>" }, completion("Carried on.")]);
    const result = await cli.run(["--yolo", "--cwd", workspace, "A long job"]);
    expect(result.code).toBe(0);
    const requests = (await cli.requests()).slice(before);
    expect(requests).toHaveLength(2);
    // The second request is the first of a fresh task: it starts from the hand-over context.
    const firstMessage = JSON.stringify((requests[1]!.body.messages as unknown[])[0]);
    expect(firstMessage).toContain("Goal: carry on with the list.");
    expect(firstMessage).not.toContain("A long job");
  });

  it("says at start what --auto-approve would allow, prints the refused question once, and exits 3", async () => {
    const workspace = await cli.workspace();
    await cli.script([{ text: "<write_to_file>\n<path>a.txt</path>\n<content>alpha</content>\n</write_to_file>" }, completion("never")]);
    const result = await cli.run(["--cwd", workspace, "Write a.txt"]);
    await cli.dropScript();
    expect(result.code).toBe(3);
    expect(existsSync(join(workspace, "a.txt"))).toBe(false);
    // Said once, before anything else: which switches exist and what each allows.
    expect(result.stderr.startsWith("tandem: no terminal to ask and no --yolo")).toBe(true);
    expect(result.stderr).toMatch(/^ +edit +create and edit files in the workspace$/m);
    expect(result.stderr.match(/no terminal to ask/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/write_to_file a\.txt needs approval.*--auto-approve edit/s);
    expect(result.stdout.match(/\? approve write_to_file a\.txt/g)).toHaveLength(1);
  });

  it("runs what --auto-approve allows, and refuses an unknown switch", async () => {
    const workspace = await cli.workspace();
    await cli.script([{ text: "<write_to_file>\n<path>a.txt</path>\n<content>alpha</content>\n</write_to_file>" }, completion("Wrote it.")]);
    const result = await cli.run(["--auto-approve", "edit", "--cwd", workspace, "Write a.txt"]);
    expect(result.code).toBe(0);
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("alpha\n");

    const bad = await cli.run(["--auto-approve", "edit,everything", "--cwd", workspace, "Anything"]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/Unknown --auto-approve switch "everything"/);
  });

  it("refuses a command without --yolo and names the switch that would allow it", async () => {
    const workspace = await cli.workspace();
    await cli.script([command("touch made.txt"), completion("never")]);
    const result = await cli.run(["--cwd", workspace, "Make a file"]);
    await cli.dropScript();
    expect(result.code).toBe(3);
    expect(existsSync(join(workspace, "made.txt"))).toBe(false);
    expect(result.stderr).toMatch(/command-all/);
  });
});
