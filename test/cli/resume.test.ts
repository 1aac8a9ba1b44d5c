/**
 * Saved tasks in the CLI: saved by default per workspace, listed with --list-tasks, and taken up
 * again with --resume after a run was stopped or killed.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tandemDataFolder, taskHistoryFile, workspaceStorageRoot } from "../../src/core/storage/paths";
import { requestText, startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;

beforeAll(async () => {
  cli = await startCliHarness();
});

afterAll(async () => {
  await cli?.close();
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const write = { text: "<write_to_file>\n<path>a.txt</path>\n<content>alpha</content>\n</write_to_file>" };
const completion = { text: "<attempt_completion>\n<result>Wrote a.txt.</result>\n</attempt_completion>" };

// Each test runs the CLI (and commands that sleep) several times: generous on a busy machine.
describe("tandem --resume and --list-tasks", { timeout: 60_000 }, () => {
  it("resumes a task stopped for want of approval, once the switch is given", async () => {
    const workspace = await cli.workspace();
    await cli.script([write, completion]);
    expect((await cli.run(["--cwd", workspace, "Write a.txt"])).code).toBe(3);
    await cli.dropScript();

    // Saved by default, per workspace, under the data home (HOME is the harness's temp folder).
    const listed = await cli.run(["--list-tasks", "--cwd", workspace]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ cancelled +\$\S+ +Write a\.txt$/m);
    expect(existsSync(join(cli.dir, ".local", "share", "tandem", "workspaces"))).toBe(true);
    const id = /^([0-9a-f-]{36}) /m.exec(listed.stdout)?.[1];
    expect(id).toBeDefined();
    const elsewhere = await cli.run(["--list-tasks", "--cwd", await cli.workspace()]);
    expect(elsewhere.stdout).toMatch(/No saved tasks/);

    const before = (await cli.requests()).length;
    await cli.script([write, completion]);
    const resumed = await cli.run(["--resume", id!.slice(0, 8), "--auto-approve", "edit", "--cwd", workspace, "Go ahead now."]);
    expect(resumed.stderr).toContain(`Resuming task ${id}`);
    expect(resumed.code).toBe(0);
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("alpha\n");
    // The model sees the conversation so far, then the resumption with the person's message.
    const toModel = requestText((await cli.requests())[before]!);
    expect(toModel).toContain("Write a.txt");
    expect(toModel).toContain("[TASK RESUMPTION]");
    expect(toModel).toContain("Go ahead now.");
  });

  it("replies to a completed task with the message after --resume, and does nothing without one", async () => {
    const workspace = await cli.workspace();
    await cli.script([completion]);
    expect((await cli.run(["--yolo", "--cwd", workspace, "Write a.txt"])).code).toBe(0);
    expect((await cli.run(["--list-tasks", "--cwd", workspace])).stdout).toMatch(/ completed +\$\S+ +Write a\.txt$/m);

    const idle = await cli.run(["--resume", "--cwd", workspace]);
    expect(idle.code).toBe(0);
    expect(idle.stderr).toMatch(/is completed\. To reply to it, add a message/);

    const before = (await cli.requests()).length;
    await cli.script([completion]);
    const replied = await cli.run(["--resume", "last", "--yolo", "--cwd", workspace, "Also say hello."]);
    expect(replied.code).toBe(0);
    const requests = (await cli.requests()).slice(before);
    expect(requests).toHaveLength(1);
    expect(requestText(requests[0]!)).toContain("[TASK REOPENED]");
    expect(requestText(requests[0]!)).toContain("Also say hello.");
  });

  it("resumes the last task after the runner was killed", async () => {
    const workspace = await cli.workspace();
    await cli.script([{ text: "slow ".repeat(2000), chunkSize: 5, delayMs: 5 }]);
    const child = spawn(process.execPath, [cli.cliPath, "--yolo", "--cwd", workspace, "Count slowly"], { env: cli.env, stdio: ["ignore", "pipe", "ignore"] });
    // The answer streaming (the task's own line, "task: Count slowly", says "slow" too): its request went, its conversation is saved.
    let printed = "";
    await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => (printed += d.toString()).includes("slow slow") && resolve()));
    // Mid-stream, once the runner wrote the task into the workspace's index (as the task starts).
    const index = taskHistoryFile(workspaceStorageRoot(tandemDataFolder({ HOME: cli.dir }), await realpath(workspace)));
    await waitFor(async () => (await readFile(index, "utf8").catch(() => "")).includes("Count slowly"));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("exit", resolve));
    await cli.dropScript();

    const before = (await cli.requests()).length;
    expect((await cli.run(["--list-tasks", "--cwd", workspace])).stdout).toMatch(/ unfinished +\$\S+ +Count slowly$/m);
    await cli.script([completion]);
    const resumed = await cli.run(["--resume", "--yolo", "--cwd", workspace]);
    expect(resumed.code).toBe(0);
    const toModel = requestText((await cli.requests())[before]!);
    expect(toModel).toContain("Count slowly");
    expect(toModel).toContain("[TASK RESUMPTION]");
  });

  it("refuses a task id it does not know, and a workspace without saved tasks, with exit code 64", async () => {
    const workspace = await cli.workspace();
    const none = await cli.run(["--resume", "last", "--cwd", workspace]);
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/No saved tasks for this workspace/);

    await cli.script([completion]);
    expect((await cli.run(["--yolo", "--cwd", workspace, "Something"])).code).toBe(0);
    const unknown = await cli.run(["--resume", "nosuch", "--cwd", workspace]);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('No saved task "nosuch" in this workspace');
  });

  it("saves nothing with --no-storage", async () => {
    const workspace = await cli.workspace();
    const storage = join(cli.dir, "explicit-store");
    await cli.script([completion]);
    expect((await cli.run(["--yolo", "--no-storage", "--cwd", workspace, "Forget me"])).code).toBe(0);
    expect((await cli.run(["--list-tasks", "--cwd", workspace])).stdout).toMatch(/No saved tasks/);
    await cli.script([completion]);
    expect((await cli.run(["--yolo", "--storage", storage, "--cwd", workspace, "Keep me"])).code).toBe(0);
    expect((await cli.run(["--list-tasks", "--storage", storage, "--cwd", workspace])).stdout).toContain("Keep me");
  });
});
