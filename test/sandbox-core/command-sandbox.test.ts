/**
 * The real sandbox (bubblewrap here, as in CI) through the path every task command takes:
 * TaskCommands → CommandSandbox → the Node terminal. Writes land only in the workspace and the
 * task's temp folder, the guard's files stay read-only, secrets and HOME's stores are unreadable,
 * and the settings switch it off and on.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IgnoreController } from "../../src/core/ignore/ignore-controller";
import { CommandSandbox } from "../../src/core/sandbox/command-sandbox";
import { TaskCommands } from "../../src/core/sandbox/task-commands";
import { coarsenHidden, scanWorkspace } from "../../src/core/sandbox/workspace-scan";
import { NodeTerminal } from "../../src/host/node/node-terminal";
import { DEFAULT_SANDBOX_SETTINGS } from "../../src/shared/settings";

let dir: string;
let home: string;
let ws: string;
let ignore: IgnoreController;
let sandbox: CommandSandbox;
let commands: TaskCommands;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "tandem-sbx-core-")));
  home = path.join(dir, "home");
  ws = path.join(dir, "ws");
  await mkdir(path.join(home, ".ssh"), { recursive: true });
  await writeFile(path.join(home, ".ssh/id_rsa"), "SSH-MARKER\n");
  await mkdir(path.join(ws, ".git/hooks"), { recursive: true });
  await mkdir(path.join(ws, "private"), { recursive: true });
  await mkdir(path.join(ws, "vendor/lib/.git/hooks"), { recursive: true });
  await writeFile(path.join(ws, ".env"), "ENV-MARKER\n");
  await writeFile(path.join(ws, ".tandemignore"), "private/\n");
  await writeFile(path.join(ws, "private/notes.md"), "PRIVATE-MARKER\n");
  ignore = await IgnoreController.create(ws);
  sandbox = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home });
  commands = new TaskCommands(new NodeTerminal({ shell: "/bin/bash" }), sandbox, [ws], ignore);
});

afterAll(async () => {
  commands?.dispose();
  await sandbox?.dispose();
  ignore?.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function run(command: string): Promise<{ code: number | null; output: string; blocked?: string }> {
  const running = commands.run(command, { cwd: ws, signal: new AbortController().signal, timeoutMs: 20_000 });
  let output = "";
  running.onOutput((text) => (output += text));
  const exit = await running.completion;
  return { code: exit.exitCode, output, blocked: running.blocked(exit, output)?.forModel };
}

describe("CommandSandbox on this machine", () => {
  it("finds a working sandbox (bubblewrap is installed here, as in CI)", async () => {
    const status = await sandbox.ready();
    expect(status).toMatchObject({ available: true, active: true, technology: "bubblewrap", refusesCommands: false });
    expect(status.deniedReads).toContain(path.join(home, ".ssh"));
  });

  it("writes only in the workspace and the task's temp folder", async () => {
    const result = await run('echo out > ../outside.txt; echo in > inside.txt; echo "$TMPDIR"; echo t > "$TMPDIR/t.txt" && echo tmp-ok');
    expect(existsSync(path.join(dir, "outside.txt"))).toBe(false);
    expect(await readFile(path.join(ws, "inside.txt"), "utf8")).toBe("in\n");
    expect(result.output).toMatch(/tandem-sandbox-\d+-\w+\/task-/);
    expect(result.output).toMatch(/tmp-ok/);
    expect(result.output).toMatch(/Read-only file system/);
  });

  it("puts back what a command changed of the files git obeys (commondir, info/attributes, a submodule's config and hooks), and says so", async () => {
    const gitDir = path.join(ws, ".git");
    await mkdir(path.join(gitDir, "info"), { recursive: true });
    await mkdir(path.join(gitDir, "modules/sub/hooks"), { recursive: true });
    await writeFile(path.join(gitDir, "modules/sub/config"), "[core]\n\tbare = false\n");
    const result = await run(
      "printf '/tmp/elsewhere\\n' > .git/commondir; echo '* diff=planted' > .git/info/attributes; " +
        "printf '[core]\\n\\tfsmonitor = touch /tmp/ran\\n' > .git/modules/sub/config; printf '#!/bin/sh\\n' > .git/modules/sub/hooks/post-checkout; " +
        "echo abc > .git/ORIG_HEAD; echo done",
    );
    expect(result.output).toContain("done");
    expect(existsSync(path.join(gitDir, "commondir"))).toBe(false);
    expect(existsSync(path.join(gitDir, "info/attributes"))).toBe(false);
    expect(await readFile(path.join(gitDir, "modules/sub/config"), "utf8")).toBe("[core]\n\tbare = false\n");
    expect(existsSync(path.join(gitDir, "modules/sub/hooks/post-checkout"))).toBe(false);
    // What git itself writes stays.
    expect(await readFile(path.join(gitDir, "ORIG_HEAD"), "utf8")).toBe("abc\n");
    expect(result.blocked).toContain("changed files git obeys");
    expect(result.blocked).toContain(path.join(gitDir, "commondir"));
    await rm(path.join(gitDir, "ORIG_HEAD"));
    await rm(path.join(gitDir, "modules"), { recursive: true });
  });

  it("keeps the files git obeys that exist (info/attributes here) read-only, and puts back the rest", async () => {
    const attributes = path.join(ws, ".git/info/attributes");
    await mkdir(path.dirname(attributes), { recursive: true });
    await writeFile(attributes, "* -diff\n");
    const result = await run("echo '* diff=planted' > .git/info/attributes; echo x > .git/commondir; echo done");
    expect(result.output).toMatch(/Read-only file system/);
    expect(result.output).toContain("done");
    expect(await readFile(attributes, "utf8")).toBe("* -diff\n");
    expect(existsSync(path.join(ws, ".git/commondir"))).toBe(false);
    await rm(attributes);
  });

  it("keeps the guard's files and git hooks read-only, nested repositories' too", async () => {
    const result = await run("echo x > .tandemignore; echo x > .git/hooks/pre-commit; echo x > vendor/lib/.git/hooks/post-checkout; mkdir -p .vscode; echo ok");
    expect(await readFile(path.join(ws, ".tandemignore"), "utf8")).toBe("private/\n");
    expect(existsSync(path.join(ws, ".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(path.join(ws, "vendor/lib/.git/hooks/post-checkout"))).toBe(false);
    expect(result.output).toMatch(/ok/);
  });

  it("hides secret and ignored files and HOME's credential stores, and says so", async () => {
    const result = await run("cat .env; cat private/notes.md; cat ~/.ssh/id_rsa; ls ~/.ssh");
    expect(result.output).not.toMatch(/MARKER/);
    expect(result.code).not.toBe(0);
    expect(result.blocked).toMatch(/sandbox/);
  });

  it("runs unconfined when switched off, and confined again when switched back", async () => {
    await sandbox.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "off" });
    expect(commands.sandbox?.active).toBe(false);
    expect((await run("cat .env")).output).toMatch(/ENV-MARKER/);
    await sandbox.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" });
    expect((await run("cat .env")).output).not.toMatch(/ENV-MARKER/);
  });

  it("with probeWhenNeeded and off (the CLI's --sandbox off), probes nothing until a mode needs it", async () => {
    const lazy = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "off" }, { home, probeWhenNeeded: true });
    try {
      expect(await lazy.ready()).toMatchObject({ mode: "off", available: false, active: false, reason: "Not checked: the sandbox is off for this run." });
      expect(await lazy.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" })).toMatchObject({ available: true, active: true, technology: "bubblewrap" });
    } finally {
      await lazy.dispose();
    }
  });
});

describe("CommandSandbox's check, after the panel's first state", () => {
  it("waits for checkAfter (settled() does not hurry it), and starts at once when something needs the sandbox", async () => {
    let firstState!: () => void;
    const waiting = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home, checkAfter: new Promise<void>((resolve) => (firstState = resolve)) });
    const hurried = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home, checkAfter: new Promise<void>(() => {}) });
    try {
      let settled = false;
      void waiting.settled().then(() => (settled = true));
      // A whole check of another sandbox runs meanwhile: this one has not started.
      expect(await hurried.ready()).toMatchObject({ available: true, active: true });
      expect(settled).toBe(false);
      expect(waiting.status.reason).toBe("The sandbox is being checked.");
      firstState();
      expect(await waiting.settled()).toMatchObject({ available: true, active: true, technology: "bubblewrap" });
    } finally {
      await waiting.dispose();
      await hurried.dispose();
    }
  });
});

describe("CommandSandbox's temp folders", () => {
  it("removes the folders of Tandem processes that are gone, and its own on dispose", async () => {
    const leftover = path.join(tmpdir(), "tandem-sandbox-99999999-left");
    await mkdir(path.join(leftover, "task-x"), { recursive: true });
    // As root, where pids cgroups can be made (CI), a leftover command group goes too.
    const pidsRoot = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"].find((root) => existsSync(path.join(root, "cgroup.procs")));
    const leftoverGroup = pidsRoot && path.join(pidsRoot, "tandem-99999999-left");
    // A gone Tandem's group whose command still runs cannot be removed: the sweep goes on past it.
    const busyGroup = pidsRoot && path.join(pidsRoot, "tandem-99999998-busy");
    let madeGroup = false;
    const stillRunning = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      if (leftoverGroup && busyGroup && process.getuid?.() === 0) {
        await mkdir(busyGroup);
        await writeFile(path.join(busyGroup, "cgroup.procs"), String(stillRunning.pid));
        await mkdir(leftoverGroup);
        madeGroup = true;
      }
    } catch {
      // Not ours to make here.
    }
    const other = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home });
    try {
      await other.ready();
      expect(existsSync(leftover)).toBe(false);
      if (madeGroup) expect(existsSync(leftoverGroup as string)).toBe(false);
      if (madeGroup) expect(existsSync(busyGroup as string)).toBe(true);
    } finally {
      stillRunning.kill("SIGKILL");
      await new Promise((resolve) => stillRunning.once("exit", resolve));
      if (madeGroup) await rmdir(busyGroup as string).catch(() => undefined);
    }
    const temp = other.makeTaskTemp();
    expect(path.basename(path.dirname(temp))).toMatch(new RegExp(`^tandem-sandbox-${process.pid}-`));
    await other.dispose();
    expect(existsSync(temp)).toBe(false);
  });
});

describe("scanWorkspace", () => {
  it("finds ignored and secret files and nested guard folders, without walking dependency folders", async () => {
    await mkdir(path.join(ws, "node_modules/pkg"), { recursive: true });
    await writeFile(path.join(ws, "node_modules/pkg/key.pem"), "x");
    const found = await scanWorkspace([ws], ignore);
    expect(found.hiddenReads).toEqual(expect.arrayContaining([path.join(ws, ".env"), path.join(ws, "private")]));
    expect(found.hiddenReads).not.toContain(path.join(ws, "private/notes.md")); // the folder is hidden whole
    expect(found.hiddenReads).not.toContain(path.join(ws, "node_modules/pkg/key.pem"));
    expect(found.readOnly).toEqual(expect.arrayContaining([path.join(ws, "vendor/lib/.git/hooks"), path.join(ws, "vendor/lib/.git/config")]));
    expect(found.truncated).toBe(false);
    expect((await scanWorkspace([ws], ignore, 3)).truncated).toBe(true);
  });
});

describe("coarsenHidden", () => {
  it("keeps few hidden paths as they are", () => {
    expect(coarsenHidden(["/ws/a/.env", "/ws/b.pem"], ["/ws"], 4)).toEqual({ paths: ["/ws/a/.env", "/ws/b.pem"], folders: [] });
  });

  it("hides folders whole past the cap, those holding several first, never the root", () => {
    const many = Array.from({ length: 10 }, (_, i) => `/ws/logs/day${i}.log`);
    const result = coarsenHidden([...many, "/ws/src/deep/.env", "/ws/top.pem"], ["/ws"], 3);
    expect(result.paths.sort()).toEqual(["/ws/logs", "/ws/src/deep/.env", "/ws/top.pem"]);
    expect(result.folders).toEqual(["/ws/logs"]);
    const lone = Array.from({ length: 6 }, (_, i) => `/ws/svc${i}/.env`);
    expect(coarsenHidden(lone, ["/ws"], 3, 10).paths).toHaveLength(6); // lone ones stay up to the second cap
    expect(coarsenHidden(lone, ["/ws"], 3, 4).paths.sort()).toEqual(lone.map((p) => p.replace("/.env", "")).sort());
    const rootOnly = Array.from({ length: 5 }, (_, i) => `/ws/k${i}.pem`);
    expect(coarsenHidden(rootOnly, ["/ws"], 2).paths).toHaveLength(5);
  });
});

describe("what a sandboxed command starts with", () => {
  it("has no credentials in its environment, and runs in a process-limited group", async () => {
    process.env.TANDEM_TEST_API_KEY = "KEY-MARKER";
    process.env.TANDEM_TEST_PLAIN = "plain-value";
    // A value over several lines, one of which reads like another variable: it stays whole.
    process.env.TANDEM_TEST_LINES = "first\nexport TANDEM_FAKE_TOKEN=x\nlast it's=done";
    process.env.TANDEM_TEST_SECRET = "SECRET-MARKER";
    // Bare names and any case are credentials too; a name that only contains a word is not.
    const credentials = { API_KEY: "BARE-KEY", PASSWORD: "BARE-PASSWORD", github_token: "LOWER-TOKEN", openai_api_key: "LOWER-KEY", Docker_Auth_Config: "MIXED-CONFIG" };
    const kept = { TOKENIZER_PATH: "kept-path", TANDEM_TOKEN_COUNT: "kept-count" };
    Object.assign(process.env, credentials, kept);
    try {
      const result = await run("env; cat /proc/self/cgroup; grep 'Max processes' /proc/self/limits");
      expect(result.output).not.toMatch(/KEY-MARKER|SECRET-MARKER/);
      for (const value of Object.values(credentials)) expect(result.output).not.toContain(value);
      for (const [name, value] of Object.entries(kept)) expect(result.output).toContain(`${name}=${value}`);
      expect(result.output).toMatch(/TANDEM_TEST_PLAIN=plain-value/);
      expect(result.output).toContain("TANDEM_TEST_LINES=first\nexport TANDEM_FAKE_TOKEN=x\nlast it's=done");
      // As root (CI), a pids cgroup of its own where the machine allows one; else a process-count limit.
      if (process.getuid?.() === 0 && /pids/.test(await readFile("/proc/self/cgroup", "utf8"))) expect(result.output).toMatch(/pids:\/tandem-/);
      else expect(result.output).toMatch(/^Max processes +\d+ +\d+/m);
    } finally {
      delete process.env.TANDEM_TEST_API_KEY;
      delete process.env.TANDEM_TEST_PLAIN;
      delete process.env.TANDEM_TEST_LINES;
      delete process.env.TANDEM_TEST_SECRET;
      for (const name of [...Object.keys(credentials), ...Object.keys(kept)]) delete process.env[name];
    }
  });

  it("makes a listed writable folder that is missing, and can write there", async () => {
    // The sandbox's HOME is `home` here; the command's own HOME is the test runner's.
    const cache = path.join(home, ".cache");
    const result = await run(`mkdir -p '${cache}/tandem-test' && echo cached > '${cache}/tandem-test/x'; cat '${cache}/tandem-test/x'`);
    expect(result.output).toMatch(/cached/);
    expect(existsSync(path.join(home, ".cache/tandem-test/x"))).toBe(true);
  });
});

describe("network: all", () => {
  it("reaches other hosts through the proxy, never this machine's own services", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_req, res) => res.end("LOCAL-MARKER"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    await sandbox.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on", network: "all" });
    try {
      const result = await run(`curl -sS -m 5 --noproxy '' http://127.0.0.1:${port}/; curl -sS -m 5 --noproxy '' http://localhost:${port}/; curl -sS -m 5 http://127.0.0.1:${port}/`);
      expect(result.output).not.toMatch(/LOCAL-MARKER/);
    } finally {
      await sandbox.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" });
      server.close();
    }
  });
});
