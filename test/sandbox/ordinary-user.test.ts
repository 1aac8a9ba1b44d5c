/**
 * The sandbox as most people run it: as an ordinary user, not root. CI runs as root, where the
 * process cap is a cgroup; an ordinary user gets `ulimit` in the launcher instead, and bubblewrap
 * needs unprivileged user namespaces. So here the production CLI runs as `nobody` (when the test
 * runs as root; otherwise as the test's own user): confined writes and reads, the process cap
 * in place, and a fork bomb stopped with nothing left running.
 */
import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PROCESSES } from "../../src/core/sandbox/process-limit";
import { commandTurn, sandboxLine, SandboxCli, toolResultIn, type RunSpec } from "./sandbox-cli";

const NOBODY = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;
const user = asRoot ? NOBODY : undefined;
const uid = user?.uid ?? process.getuid?.() ?? -1;
const MARKER = `ORDINARY-${Date.now().toString(36)}`;

let dir: string;
let cli: SandboxCli;
let home: string;
let ws: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-sandbox-user-"));
  // The other user must reach the bundle and its folders (the run's bundles may sit in a
  // checkout only its owner can enter, as a fresh clone in a private temp folder does).
  await chmod(dir, 0o755);
  cli = await SandboxCli.copiedTo(dir);
  home = path.join(dir, "home");
  ws = path.join(home, "ws");
  await mkdir(path.join(home, ".ssh"), { recursive: true });
  await mkdir(ws);
  await writeFile(path.join(home, ".ssh/id_rsa"), `${MARKER}-ssh\n`);
  await writeFile(path.join(ws, ".env"), `TOKEN=${MARKER}-env\n`);
  if (user) for (const folder of [home, path.join(home, ".ssh"), ws]) await chownAll(folder, user);
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function chownAll(folder: string, owner: typeof NOBODY): Promise<void> {
  await chown(folder, owner.uid, owner.gid);
  for (const name of await readdir(folder)) {
    const file = path.join(folder, name);
    if ((await stat(file)).isFile()) await chown(file, owner.uid, owner.gid);
  }
}

function run(command: string, extra: Partial<RunSpec> = {}) {
  return cli.run({ home, ws, turns: [commandTurn(command, { timeout: "10" })], ...(user ? { user } : {}), ...extra });
}

/** Every thread on the machine now: /proc/loadavg's fourth field, "running/all". */
async function machineThreads(): Promise<number> {
  return Number((await readFile("/proc/loadavg", "utf8")).split(" ")[3]?.split("/")[1]);
}

/** Processes of `uid` still running (a fork bomb's leftovers); the dead waiting for this machine's init to reap them do not count. */
async function processesOf(owner: number): Promise<number> {
  let count = 0;
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, "utf8").catch(() => "");
    if (new RegExp(`^Uid:\\s+${owner}\\s`, "m").test(status) && !/^State:\s+Z/m.test(status)) count++;
  }
  return count;
}

describe(`the production CLI as an ordinary user (${user ? "nobody" : "this user"})`, () => {
  it("runs commands confined: writes stay in the workspace, secrets stay unread, processes capped", async () => {
    const result = await run(
      "echo made > inside.txt; touch ~/outside.txt; cat $(find ~ -name 'id_*'); cat $(ls -a | grep env); grep 'Max processes' /proc/self/limits",
    );
    expect(sandboxLine(result.stderr)).toMatch(/^Sandbox: on/);
    const output = toolResultIn(result.requests, 1) ?? "";
    // The cap sits just above what runs on the machine (its threads), far below the default.
    const cap = Number(/^Max processes +(\d+) +\d+/m.exec(output)?.[1]);
    expect(cap).toBeGreaterThan(MAX_PROCESSES);
    expect(cap).toBeLessThan((await machineThreads()) + MAX_PROCESSES + 1000);
    expect(await readFile(path.join(ws, "inside.txt"), "utf8")).toBe("made\n");
    expect(existsSync(path.join(home, "outside.txt"))).toBe(false);
    expect(JSON.stringify(result.requests)).not.toContain(MARKER);
  });

  it.runIf(user)("stops a fork bomb at the cap, and nothing of it outlives the command", async () => {
    expect(await processesOf(uid), "no process of the test user runs before").toBe(0);
    // Written to a file first, the guard cannot read what it does: children that stay, until a fork fails.
    const bomb = 'my $n = 0; while (1) { my $p = fork; if (!defined $p) { print "capped after $n\\n"; exit } if (!$p) { sleep 60; exit } $n++ }';
    const result = await run(`cat > bomb.pl <<'EOF'\n${bomb}\nEOF\ngrep 'Max processes' /proc/self/limits; perl bomb.pl`, { timeoutMs: 90_000 });
    expect(sandboxLine(result.stderr)).toMatch(/^Sandbox: on/);
    const output = toolResultIn(result.requests, 1) ?? "";
    const forks = Number(/capped after (\d+)/.exec(output)?.[1]);
    // The cap the command ran under (set from the threads running when it started; other tests
    // on the machine change that number, so it is read, not recomputed).
    const cap = Number(/^Max processes +(\d+) +\d+/m.exec(output)?.[1]);
    expect(forks).toBeGreaterThan(100);
    expect(cap).toBeLessThan((await machineThreads()) + MAX_PROCESSES + 1000);
    expect(forks).toBeLessThan(cap);
    const deadline = Date.now() + 20_000;
    while ((await processesOf(uid)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await processesOf(uid)).toBe(0);
  }, 120_000);
});
