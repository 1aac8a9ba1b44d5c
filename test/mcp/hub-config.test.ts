/**
 * The hub and its files: a change restarts only the servers whose launch changed, a malformed
 * file keeps what runs (and says where it is wrong), edits go back to the file they came from
 * keeping its other content, and workspace servers wait for trust.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDebouncedWatcher } from "../../src/core/mcp/config-watcher";
import type { WorkspaceTrustRequest } from "../../src/core/mcp";
import { fixture, startHub, stdio, type TestHub } from "./support";

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const pidOf = async (t: TestHub, server: string) => {
  const result = await t.hub.callTool(server, "pid", {});
  return result.content[0]?.type === "text" ? Number(result.content[0].text) : NaN;
};

describe("the global file, watched", () => {
  let t: TestHub;
  const state = (name: string) => t.hub.servers().find((s) => s.name === name)?.state;
  beforeAll(async () => {
    t = await startHub({ a: stdio(fixture("tool-server.mjs")), b: stdio(fixture("tool-server.mjs")) }, { watch: createDebouncedWatcher(50) });
    await t.hub.waitForConnections();
  });
  afterAll(() => t?.close());

  it("restarts only the server whose launch changed", async () => {
    const [a, b] = [await pidOf(t, "a"), await pidOf(t, "b")];
    const config = JSON.parse(await readFile(t.configFile, "utf8"));
    config.mcpServers.b.args.push("--changed");
    config.mcpServers.a.timeout = 30; // not a launch field: no restart
    await writeFile(t.configFile, JSON.stringify(config, null, 2));
    await until(() => t.hub.servers().find((s) => s.name === "a")?.timeoutSeconds === 30);
    await until(() => state("b") === "connected");
    await t.hub.waitForConnections();
    expect(await pidOf(t, "a")).toBe(a);
    expect(await pidOf(t, "b")).not.toBe(b);
  });

  it("a malformed file keeps the servers running and says where it is wrong", async () => {
    const a = await pidOf(t, "a");
    const good = await readFile(t.configFile, "utf8");
    await writeFile(t.configFile, good.replace('"timeout": 30', '"timeout": "30"'));
    await until(() => t.hub.state().problems.length > 0);
    expect(t.hub.state().problems[0]?.message).toMatch(/tandem_mcp_settings\.json line \d+ column \d+: server "a": "timeout" must be a number of seconds/);
    expect(state("a")).toBe("connected");
    expect(await pidOf(t, "a")).toBe(a);
    await writeFile(t.configFile, good.replace('"mcpServers"', '"mcpServers" ,,'));
    await until(() => /invalid JSON/.test(t.hub.state().problems[0]?.message ?? ""));
    expect(state("a")).toBe("connected");
    await writeFile(t.configFile, good);
    await until(() => t.hub.state().problems.length === 0);
  });

  it("writes 'always allow' into the server's autoApprove, keeping the file's other content", async () => {
    const a = await pidOf(t, "a");
    const config = JSON.parse(await readFile(t.configFile, "utf8"));
    config.comment = "kept";
    config.mcpServers.a.env = { KEEP: "me" };
    await writeFile(t.configFile, JSON.stringify(config, null, 2));
    await t.hub.reload("global"); // not waiting for the watcher: the env change restarts "a" now
    await t.hub.waitForConnections();
    await t.hub.setToolAutoApprove("a", "pid", true);
    const written = JSON.parse(await readFile(t.configFile, "utf8"));
    expect(written.comment).toBe("kept");
    expect(written.mcpServers.a).toMatchObject({ autoApprove: ["pid"], env: { KEEP: "me" }, timeout: 30 });
    expect(t.hub.servers().find((s) => s.name === "a")?.tools.find((tool) => tool.name === "pid")?.autoApprove).toBe(true);
    await t.hub.setToolAutoApprove("a", "pid", false);
    expect(JSON.parse(await readFile(t.configFile, "utf8")).mcpServers.a.autoApprove).toEqual([]);
    expect(await pidOf(t, "a")).not.toBe(a); // the env change above restarted it, the autoApprove edits did not
  });

  it("disables, enables and deletes through the file", async () => {
    await t.hub.setServerDisabled("b", true);
    expect(state("b")).toBe("disabled");
    expect(JSON.parse(await readFile(t.configFile, "utf8")).mcpServers.b.disabled).toBe(true);
    await t.hub.setServerDisabled("b", false);
    await until(() => state("b") === "connected");
    await t.hub.deleteServer("b");
    expect(state("b")).toBeUndefined();
    expect(JSON.parse(await readFile(t.configFile, "utf8")).mcpServers.b).toBeUndefined();
  });
});

describe("workspace servers", () => {
  let t: TestHub;
  let trusted = false;
  const asked: WorkspaceTrustRequest[] = [];
  beforeAll(async () => {
    const { mkdtemp } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const workspace = await mkdtemp(path.join(tmpdir(), "tandem-mcp-ws-"));
    await mkdir(path.join(workspace, ".tandem"));
    const workspaceConfigFile = path.join(workspace, ".tandem", "mcp.json");
    await writeFile(workspaceConfigFile, JSON.stringify({ mcpServers: { repo: stdio(fixture("tool-server.mjs")), a: stdio(fixture("tool-server.mjs")) } }));
    t = await startHub(
      { a: stdio(fixture("tool-server.mjs")) },
      {
        workspaceConfigFile,
        trustWorkspace: (request) => {
          asked.push(request);
          return trusted;
        },
      },
    );
    await t.hub.waitForConnections();
  });
  afterAll(() => t?.close());

  it("are not started until the person trusts them", async () => {
    expect(t.hub.servers().find((s) => s.name === "repo")).toMatchObject({ state: "untrusted", source: "workspace" });
    expect(asked[0]?.servers).toEqual([{ name: "repo", launch: `${process.execPath} ${fixture("tool-server.mjs")}` }]);
    expect(asked[0]?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    trusted = true;
    await t.hub.refreshWorkspaceTrust();
    await t.hub.waitForConnections();
    expect(t.hub.servers().find((s) => s.name === "repo")?.state).toBe("connected");
  });

  it("cannot shadow a global server of the same name", () => {
    expect(t.hub.servers().find((s) => s.name === "a")?.source).toBe("global");
    expect(t.hub.state().problems.map((p) => p.message)).toContain('mcp.json: server "a" is also in tandem_mcp_settings.json; that one is used');
  });
});

describe("waitForConnections before start() has read the files", () => {
  it("waits for the files and then the servers, as a first request right after a start that is not awaited does", async () => {
    const t = await startHub({});
    await writeFile(t.configFile, JSON.stringify({ mcpServers: { a: stdio(fixture("tool-server.mjs")) } }));
    const { McpHub } = await import("../../src/core/mcp");
    const hub = new McpHub({ globalConfigFile: t.configFile, trustWorkspace: () => false, workspaceFolders: () => [t.folder], watch: false });
    try {
      void hub.start();
      expect(await hub.waitForConnections(10_000)).toEqual({ stillConnecting: [] });
      expect(hub.servers().map((s) => [s.name, s.state])).toEqual([["a", "connected"]]);
    } finally {
      await hub.shutdown();
      await t.close();
    }
  });
});
