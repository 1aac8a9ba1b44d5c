/**
 * Notifications through the bundled CLI: the terminal's bell (at a real terminal, a tmux pane whose
 * every byte is recorded) and the --notify command, when a question waits at the terminal and when
 * the task ends; the command reads the words from its environment, so a model's words cannot run;
 * a failing or hanging command is said once and never stops the task. And the Notification hook.
 */
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startCliHarness, type CliHarness } from "./cli-harness";
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

const BELL = "\x07";
const completion = { text: "<attempt_completion>\n<result>All 12 tests pass.\nNothing else changed.</result>\n</attempt_completion>" };
const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });
/** A --notify command that appends what it read to `file`, one line per run. */
const LOGGING = (file: string) => `printf '%s|%s|%s\\n' "$TANDEM_NOTIFICATION" "$TANDEM_NOTIFICATION_EVENT" "$TANDEM_NOTIFICATION_KIND" >> ${JSON.stringify(file)}`;
/** Running, and not a zombie waiting for a parent (a container's init may never reap one). */
const isAlive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
const lines = async (file: string) => (existsSync(file) ? (await readFile(file, "utf8")).split("\n").filter(Boolean) : []);

describe("the bell and --notify", { timeout: 60_000 }, () => {
  it("at a terminal: the bell and the command for the question put there and for the result, not for what the person just did", async () => {
    const workspace = await cli.workspace();
    const log = join(cli.dir, "notified-terminal.log");
    await cli.script([command("echo hi"), completion]);
    terminal = await openTerminal(cli.dir, [process.execPath, cli.cliPath, "--cwd", workspace, "--notify", LOGGING(log), "Run the tests"], cli.env, { record: true });
    await terminal.waitFor(/\[y\]es \/ \[n\]o/);
    await expect.poll(() => lines(log)).toEqual(["Tandem wants to run `echo hi` — task: Run the tests|question|command"]);
    expect((await terminal.output()).split(BELL)).toHaveLength(2);
    await terminal.send("y", "Enter");
    await terminal.waitFor(/Done\? Press Enter/);
    await terminal.send("Enter");
    expect(await terminal.exitCode()).toBe(0);
    expect(await lines(log)).toEqual(["Tandem wants to run `echo hi` — task: Run the tests|question|command", "Tandem finished: All 12 tests pass. — task: Run the tests|taskEnded|completed"]);
    expect((await terminal.output()).split(BELL)).toHaveLength(3);
  });

  it("a failing command is said once, and the task goes on to its end", async () => {
    const workspace = await cli.workspace();
    await cli.script([command("echo hi"), completion]);
    terminal = await openTerminal(cli.dir, [process.execPath, cli.cliPath, "--cwd", workspace, "--notify", "echo 'no display here' >&2; exit 3", "Run the tests"], cli.env);
    await terminal.waitFor(/\[y\]es \/ \[n\]o/);
    await terminal.send("y", "Enter");
    await terminal.waitFor(/Done\? Press Enter/);
    await terminal.send("Enter");
    expect(await terminal.exitCode()).toBe(0);
    const screen = await terminal.screen();
    expect(screen.match(/the --notify command failed \(it exited with code 3: no display here\); the task goes on/g)).toHaveLength(1);
  });

  it("unattended: no bell (stderr is no terminal), the command once, for the task's end; a model's words stay words", async () => {
    const workspace = await cli.workspace();
    const log = join(cli.dir, "notified-unattended.log");
    await cli.script([{ text: '<attempt_completion>\n<result>$(touch pwned) `touch pwned2` "; touch pwned3; "</result>\n</attempt_completion>' }]);
    const run = await cli.run(["--cwd", workspace, "--yolo", "--notify", LOGGING(log), "Report"], { cwd: workspace });
    expect(run.code, run.stderr).toBe(0);
    expect(await lines(log)).toEqual(['Tandem finished: $(touch pwned) `touch pwned2` "; touch pwned3; " — task: Report|taskEnded|completed']);
    for (const name of ["pwned", "pwned2", "pwned3"]) expect(existsSync(join(workspace, name))).toBe(false);
    expect(run.stderr).not.toContain(BELL);
  });

  it("a hanging command is stopped at its timeout with what it started, said, and the run still ends", async () => {
    const workspace = await cli.workspace();
    const pids = join(cli.dir, "notify-pids");
    await cli.script([completion]);
    const started = Date.now();
    const run = await cli.run(["--cwd", workspace, "--yolo", "--notify", `sleep 60 & echo $! > ${JSON.stringify(pids)}; wait`, "Report"], { killAfterMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(run.stderr).toContain("the --notify command failed (it ran longer than 10 s and was stopped)");
    const [sleeper] = (await lines(pids)).map(Number);
    expect(isAlive(sleeper!)).toBe(false);
  });
});

describe("the Notification hook", { timeout: 60_000 }, () => {
  it("runs from the global hooks folder with the notification, silently", async () => {
    const data = join(cli.dir, "data-notification");
    const seen = join(cli.dir, "notification-hook.log");
    const hook = join(data, "tandem", "hooks", "Notification");
    await mkdir(join(hook, ".."), { recursive: true });
    await writeFile(hook, `#!/bin/sh\ncat >> ${JSON.stringify(seen)}\necho >> ${JSON.stringify(seen)}\n`);
    await chmod(hook, 0o755);
    await cli.script([completion]);
    const workspace = await cli.workspace();
    const run = await cli.run(["--cwd", workspace, "--yolo", "Report"], { env: { XDG_DATA_HOME: data } });
    expect(run.code, run.stderr).toBe(0);
    const runs = (await lines(seen)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ hookName: "Notification", workspaceRoots: [workspace], notification: { event: "taskEnded", kind: "completed", message: "Tandem finished: All 12 tests pass.", task: "Report" } });
    expect(run.stdout).not.toContain("[hook]");
  });
});
