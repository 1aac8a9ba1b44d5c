/**
 * `"sandbox": true`: a stdio server runs inside the real command sandbox (bubblewrap here, as in
 * CI) through McpServerConfiner. It connects and its tools work; it cannot read HOME's credential
 * stores or the workspace's secret files, nor write outside the workspace, which the same server
 * unconfined can; the person's explicit `env` reaches it, credential-named or not; where the
 * sandbox is off it fails with the reason instead of running unconfined; and nothing it started
 * outlives the hub.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpHub, McpToolResult } from "../../src/core/mcp";
import { CommandSandbox } from "../../src/core/sandbox/command-sandbox";
import { McpServerConfiner } from "../../src/core/sandbox/mcp-server-confiner";
import { DEFAULT_SANDBOX_SETTINGS } from "../../src/shared/settings";
import { fixture, serverScript, startHub, stdio, type TestHub } from "./support";

let dir: string;
let home: string;
let ws: string;
let sandbox: CommandSandbox;
const hubs: TestHub[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "tandem-mcp-sbx-")));
  home = path.join(dir, "home");
  ws = path.join(dir, "ws");
  await mkdir(path.join(home, ".ssh"), { recursive: true });
  await writeFile(path.join(home, ".ssh/id_rsa"), "SSH-MARKER\n");
  await mkdir(ws, { recursive: true });
  await writeFile(path.join(ws, ".env"), "ENV-MARKER\n");
  await writeFile(path.join(ws, "notes.md"), "plain notes\n");
  sandbox = CommandSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home });
});

afterAll(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  await sandbox?.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** A hub whose workspace is `ws`, given the sandbox unless told not to. */
async function hubWith(servers: Record<string, unknown>, confined = true): Promise<McpHub> {
  const t = await startHub(servers, { workspaceFolders: () => [ws], ...(confined ? { sandbox: new McpServerConfiner(sandbox) } : {}) });
  hubs.push(t);
  await t.hub.waitForConnections(20_000);
  return t.hub;
}

const probe = (extra: Record<string, unknown> = {}) => ({ ...stdio(fixture("probe-server.mjs")), ...extra });
const textOf = (result: McpToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const stateOf = (hub: McpHub, name: string) => hub.servers().find((s) => s.name === name);

describe.skipIf(process.platform !== "linux")('"sandbox": true', { timeout: 60_000 }, () => {
  it("needs the real sandbox here (bubblewrap, as in CI)", async () => {
    expect(await sandbox.ready()).toMatchObject({ available: true, active: true, technology: "bubblewrap" });
  });

  it("runs server-everything confined: it connects and its tools answer", async () => {
    const hub = await hubWith({ everything: { command: process.execPath, args: [serverScript("server-everything"), "stdio"], sandbox: true } });
    expect(stateOf(hub, "everything")).toMatchObject({ state: "connected" });
    expect(textOf(await hub.callTool("everything", "echo", { message: "from the sandbox" }))).toContain("Echo: from the sandbox");
  });

  it("keeps a confined server from HOME's credential stores, the workspace's secrets and writes outside; unconfined it can", async () => {
    const hub = await hubWith({ confined: probe({ sandbox: true }), free: probe() });
    expect(stateOf(hub, "confined")?.state, stateOf(hub, "confined")?.error).toBe("connected");
    const outside = path.join(dir, "outside.txt");

    const ssh = await hub.callTool("confined", "read-file", { path: path.join(home, ".ssh/id_rsa") });
    expect(ssh.isError).toBe(true);
    expect(textOf(ssh)).not.toContain("SSH-MARKER");
    const env = await hub.callTool("confined", "read-file", { path: path.join(ws, ".env") });
    expect(textOf(env)).not.toContain("ENV-MARKER");
    expect(textOf(await hub.callTool("confined", "read-file", { path: path.join(ws, "notes.md") }))).toBe("plain notes\n");
    const write = await hub.callTool("confined", "write-file", { path: outside, text: "escaped" });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/read-only file system|EROFS|EACCES|EPERM/i);
    expect(existsSync(outside)).toBe(false);
    expect(textOf(await hub.callTool("confined", "write-file", { path: path.join(ws, "inside.txt"), text: "in" }))).toBe("written");
    expect(await readFile(path.join(ws, "inside.txt"), "utf8")).toBe("in");

    expect(textOf(await hub.callTool("free", "read-file", { path: path.join(home, ".ssh/id_rsa") }))).toContain("SSH-MARKER");
    expect(textOf(await hub.callTool("free", "read-file", { path: path.join(ws, ".env") }))).toContain("ENV-MARKER");
    expect(textOf(await hub.callTool("free", "write-file", { path: outside, text: "unconfined" }))).toBe("written");
    expect(await readFile(outside, "utf8")).toBe("unconfined");
  });

  it("passes the explicit env, credential-named variables too, exactly as written", async () => {
    const tricky = "ghp_it's $HOME `x` \"q\"\nsecond line";
    const hub = await hubWith({ confined: probe({ sandbox: true, env: { GITHUB_TOKEN: tricky, MY_API_KEY: "k-1", PLAIN: "p" } }) });
    expect(stateOf(hub, "confined")?.state, stateOf(hub, "confined")?.error).toBe("connected");
    const env = async (name: string) => JSON.parse(textOf(await hub.callTool("confined", "env", { name }))) as string | null;
    expect(await env("GITHUB_TOKEN")).toBe(tricky);
    expect(await env("MY_API_KEY")).toBe("k-1");
    expect(await env("PLAIN")).toBe("p");
    // The carriers that brought them are gone; TMPDIR is the server's own temp folder.
    expect(await env("TANDEM_MCP_ENV_0")).toBeNull();
    expect(await env("TMPDIR")).toMatch(/tandem-sandbox-\d+-\w+\/task-/);
  });

  it("fails with the reason when the sandbox is off or missing, and never runs the server unconfined", async () => {
    // The settings' switch, as the person flips it (the library is one per process: one sandbox here).
    await sandbox.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "off" });
    try {
      const hub = await hubWith({ confined: probe({ sandbox: true }) });
      const server = stateOf(hub, "confined");
      expect(server?.state).toBe("failed");
      expect(server?.error).toContain('switched off (its mode is "off")');
      expect(server?.error).toContain('Removing "sandbox": true runs it unconfined');
    } finally {
      await sandbox.update({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" });
    }
    const none = await hubWith({ confined: probe({ sandbox: true }) }, false);
    expect(stateOf(none, "confined")?.state).toBe("failed");
    expect(stateOf(none, "confined")?.error).toContain("no command sandbox");
  });

  it("leaves nothing running after shutdown: not the server, its grandchild, bubblewrap nor the launcher", async () => {
    const mark = randomBytes(12).toString("hex");
    const t = await startHub({ confined: probe({ sandbox: true, env: { PROBE_MARK: mark } }) }, { workspaceFolders: () => [ws], sandbox: new McpServerConfiner(sandbox) });
    await t.hub.waitForConnections(20_000);
    expect(stateOf(t.hub, "confined")?.state, stateOf(t.hub, "confined")?.error).toBe("connected");
    expect(textOf(await t.hub.callTool("confined", "spawn-child", {}))).toBe("started");
    const running = await waitFor(() => marked(mark), (pids) => pids.some((pid) => commandOf(pid).startsWith("sleep")));
    const commands = running.map(commandOf);
    expect(commands.some((c) => c.startsWith("bwrap"))).toBe(true);
    expect(commands.some((c) => c.includes("probe-server.mjs"))).toBe(true);
    await t.close();
    expect(await waitFor(() => marked(mark), (pids) => pids.length === 0, 6000)).toEqual([]);
  });
});

/** Processes whose environment holds `mark` (a zombie no one reaps counts as gone). */
function marked(mark: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${name}/stat`, "utf8"))) continue;
      if (readFileSync(`/proc/${name}/environ`).includes(mark)) pids.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

async function waitFor<T>(get: () => T, done: (value: T) => boolean, withinMs = 5000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = get();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
