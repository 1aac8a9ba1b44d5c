/**
 * Hostile servers: each ends in a clear state with a message that explains it, within bounds,
 * and never takes the hub (or another server) down with it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, serverScript, startHub, stdio, type TestHub } from "./support";

describe("servers that fail to connect", () => {
  let t: TestHub;
  let waited: { stillConnecting: readonly string[] };
  beforeAll(async () => {
    t = await startHub(
      {
        "exits-at-once": stdio(fixture("exit-at-once.mjs")),
        "hangs-in-initialize": stdio(fixture("hang-initialize.mjs")),
        "garbage-on-stdout": stdio(fixture("garbage-stdout.mjs")),
        "invalid-json-rpc": stdio(fixture("invalid-jsonrpc.mjs")),
        "no-such-command": { command: "tandem-no-such-command-xyz" },
        healthy: stdio(serverScript("server-everything"), "stdio"),
      },
      { connectTimeoutMs: 1500 },
    );
    // Nothing still connecting when the wait returns: each server settled by itself (the hung one
    // at its 1.5 s connect timeout), not by the wait's own 10 s limit. No wall-clock bound: under load
    // the spawns alone can take seconds.
    waited = await t.hub.waitForConnections(10_000);
  });
  afterAll(() => t?.close());

  const server = (name: string) => t.hub.servers().find((s) => s.name === name);

  it("all settle within the connect timeout; the healthy one connects anyway", () => {
    expect(waited.stillConnecting).toEqual([]);
    expect(server("healthy")?.state).toBe("connected");
  });

  it("a server that exits at once: its exit code and the tail of its stderr", () => {
    expect(server("exits-at-once")).toMatchObject({
      state: "failed",
      error: expect.stringContaining("exited with code 3"),
      stderrTail: expect.stringContaining("EXAMPLE_API_KEY is not set"),
    });
  });

  it("a server that never answers initialize: failed after the timeout", () => {
    expect(server("hangs-in-initialize")).toMatchObject({ state: "failed", error: expect.stringContaining("no answer to initialize within") });
  });

  it("a server that writes garbage to stdout: says so, quoting the first line", () => {
    expect(server("garbage-on-stdout")).toMatchObject({ state: "failed", error: expect.stringContaining('"Welcome to the Example MCP server v1.0!"') });
  });

  it("a server answering invalid JSON-RPC: the validation error", () => {
    expect(server("invalid-json-rpc")).toMatchObject({ state: "failed", error: expect.stringMatching(/protocolVersion|expected/i) });
  });

  it("a command that does not exist: the shell's own message", () => {
    expect(server("no-such-command")).toMatchObject({ state: "failed", error: expect.stringContaining("exited with code 127"), stderrTail: expect.stringMatching(/not found/) });
  });

  it("a call to a failed server is refused with its reason", async () => {
    await expect(t.hub.callTool("exits-at-once", "anything", {})).rejects.toMatchObject({ code: "not_connected", message: expect.stringContaining("exited with code 3") });
  });
});

describe("tools that misbehave", () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startHub({ tools: { ...stdio(fixture("tool-server.mjs")), timeout: 1 }, other: stdio(fixture("tool-server.mjs")) });
    await t.hub.waitForConnections();
  });
  afterAll(() => t?.close());

  it("a 10 MB result reaches the model bounded to head and tail", async () => {
    const result = await t.hub.callTool("other", "big", {});
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text.length).toBeLessThan(100_200);
    expect(result.omittedChars).toBe(10 * 1024 * 1024 - 100_000);
    expect(text).toMatch(/^x+\n\[… 10385760 characters omitted/);
  });

  it("cancelling sends notifications/cancelled: the server sees its request aborted", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(t.hub.callTool("other", "wait-for-cancel", {}, { signal: controller.signal })).rejects.toMatchObject({ code: "cancelled" });
    // The notification travels on its own: on a busy machine it may reach the server after the rejection.
    const deadline = Date.now() + 5_000;
    let seen: unknown;
    while ((seen = (await t.hub.callTool("other", "cancellations", {})).content[0]) && (seen as { text?: string }).text !== "1" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toMatchObject({ text: "1" });
  });

  it("the server's timeout (1 s here) ends a call that takes longer", async () => {
    const started = Date.now();
    await expect(t.hub.callTool("tools", "sleep", { ms: 5000 })).rejects.toMatchObject({ code: "timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await t.hub.callTool("tools", "sleep", { ms: 10 })).content[0]).toMatchObject({ text: "slept" });
  });

  it("a server that dies mid-call: the call fails with its exit, the server shows failed", async () => {
    await expect(t.hub.callTool("tools", "die", {})).rejects.toMatchObject({ code: "connection_lost", message: expect.stringContaining("exited with code 9") });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.hub.servers().find((s) => s.name === "tools")).toMatchObject({ state: "failed", error: expect.stringContaining("exited with code 9") });
    expect(t.hub.servers().find((s) => s.name === "other")?.state).toBe("connected");
  });

  it("restart brings a failed server back", async () => {
    await t.hub.restartServer("tools");
    await t.hub.waitForConnections();
    expect(t.hub.servers().find((s) => s.name === "tools")?.state).toBe("connected");
  });
});

describe("ten servers at once", () => {
  it("connect in parallel", async () => {
    const servers = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`everything-${i}`, stdio(serverScript("server-everything"), "stdio")]));
    const started = performance.now();
    const t = await startHub(servers);
    try {
      const { stillConnecting } = await t.hub.waitForConnections(20_000);
      const ms = performance.now() - started;
      expect(stillConnecting).toEqual([]);
      expect(t.hub.servers().every((s) => s.state === "connected")).toBe(true);
      // One server alone, for the ratio.
      const oneStarted = performance.now();
      const one = await startHub({ alone: stdio(serverScript("server-everything"), "stdio") });
      await one.hub.waitForConnections();
      const oneMs = performance.now() - oneStarted;
      await one.close();
      console.log(`MCP connect: 10 x server-everything (stdio) in ${ms.toFixed(0)} ms; 1 alone in ${oneMs.toFixed(0)} ms`);
    } finally {
      await t.close();
    }
  });
});
