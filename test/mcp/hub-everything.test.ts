/**
 * The hub against the reference servers from npm, over all three transports: what the model and
 * the panel would get (tools, resources, prompts, results of each content kind, progress,
 * cancellation, roots, elicitation declined by default).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { McpServerSnapshot } from "../../src/core/mcp";
import { serverScript, startHub, stdio, type TestHub } from "./support";

describe("server-everything over stdio", () => {
  let t: TestHub;
  let everything: McpServerSnapshot;
  beforeAll(async () => {
    t = await startHub({ everything: stdio(serverScript("server-everything"), "stdio") });
    expect(await t.hub.waitForConnections()).toEqual({ stillConnecting: [] });
    everything = t.hub.servers()[0] as McpServerSnapshot;
  });
  afterAll(() => t?.close());

  it("lists its tools, resources, templates and prompts", () => {
    expect(everything.state).toBe("connected");
    expect(everything.serverInfo?.name).toBeTruthy();
    const names = everything.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "trigger-long-running-operation", "get-roots-list"]));
    expect(everything.tools.find((tool) => tool.name === "echo")?.inputSchema).toMatchObject({ type: "object", required: ["message"] });
    expect(everything.resources.length).toBeGreaterThan(0);
    expect(everything.resourceTemplates.map((r) => r.uriTemplate)).toContain("demo://resource/dynamic/text/{resourceId}");
    expect(everything.prompts.length).toBeGreaterThan(0);
  });

  it("calls echo and get-sum", async () => {
    expect(await t.hub.callTool("everything", "echo", { message: "hello" })).toEqual({ isError: false, content: [{ type: "text", text: "Echo: hello" }], omittedChars: 0 });
    const sum = await t.hub.callTool("everything", "get-sum", { a: 2, b: 40 });
    expect(sum.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("42") });
  });

  it("refuses arguments that do not match the input schema, before calling", async () => {
    await expect(t.hub.callTool("everything", "get-sum", { a: "2" })).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringMatching(/required property 'b'.*arguments\/a must be number/),
    });
    await expect(t.hub.callTool("everything", "no-such-tool", {})).rejects.toMatchObject({ code: "unknown_tool" });
  });

  it("returns an image as base64 with its mime type", async () => {
    const result = await t.hub.callTool("everything", "get-tiny-image", {});
    const image = result.content.find((c) => c.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) });
  });

  it("returns structured content, resource links and embedded resources", async () => {
    const structured = await t.hub.callTool("everything", "get-structured-content", { location: "Chicago" });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const links = await t.hub.callTool("everything", "get-resource-links", { count: 2 });
    expect(links.content.filter((c) => c.type === "resource_link")).toHaveLength(2);
    const embedded = await t.hub.callTool("everything", "get-resource-reference", { resourceType: "Text", resourceId: 1 });
    expect(embedded.content.some((c) => c.type === "resource" && c.text.length > 0)).toBe(true);
  });

  it("passes progress notifications to onProgress", async () => {
    const progress: unknown[] = [];
    const result = await t.hub.callTool("everything", "trigger-long-running-operation", { duration: 0.6, steps: 3 }, { onProgress: (p) => progress.push(p) });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("completed") });
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("cancels a long call when its signal aborts, and stays connected", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    await expect(t.hub.callTool("everything", "trigger-long-running-operation", { duration: 20, steps: 2 }, { signal: controller.signal })).rejects.toMatchObject({ code: "cancelled" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await t.hub.callTool("everything", "echo", { message: "still here" })).content[0]).toMatchObject({ text: "Echo: still here" });
  });

  it("reads a resource", async () => {
    const uri = everything.resources[0]?.uri as string;
    const result = await t.hub.readResource("everything", uri);
    expect(result.contents[0]).toMatchObject({ type: "resource", uri, text: expect.any(String) });
  });

  it("offers the workspace folders as roots", async () => {
    const result = await t.hub.callTool("everything", "get-roots-list", {});
    expect(JSON.stringify(result.content)).toContain(new URL(`file://${t.folder}`).href);
  });

  it("declines elicitation when the host gives no handler", async () => {
    const result = await t.hub.callTool("everything", "trigger-elicitation-request", {});
    expect(JSON.stringify(result.content).toLowerCase()).toContain("decline");
  });
});

/** Starts server-everything in one of its HTTP modes on a free port and waits until it listens. */
async function startHttpServer(mode: "sse" | "streamableHttp", port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [serverScript("server-everything"), mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      if (/listening on port|running on port/i.test(err)) resolve();
    });
    child.once("exit", () => reject(new Error(`server-everything ${mode} exited: ${err}`)));
  });
  return child;
}

describe.each([
  ["sse", "/sse", 39211],
  ["streamableHttp", "/mcp", 39212],
] as const)("server-everything over %s", (mode, route, port) => {
  let server: ChildProcess;
  let t: TestHub;
  beforeAll(async () => {
    server = await startHttpServer(mode, port);
    t = await startHub({ remote: { type: mode, url: `http://127.0.0.1:${port}${route}` } });
    await t.hub.waitForConnections();
  });
  afterAll(async () => {
    await t?.close();
    server?.kill();
  });

  it("connects, lists and calls tools, with progress", async () => {
    const [remote] = t.hub.servers();
    expect(remote).toMatchObject({ state: "connected", type: mode });
    expect(remote?.tools.map((tool) => tool.name)).toContain("echo");
    expect((await t.hub.callTool("remote", "echo", { message: mode })).content[0]).toMatchObject({ text: `Echo: ${mode}` });
    const progress: unknown[] = [];
    await t.hub.callTool("remote", "trigger-long-running-operation", { duration: 0.6, steps: 3 }, { onProgress: (p) => progress.push(p) });
    // The last one comes just before the result; response-order.ts keeps the SDK from dropping it.
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3 })));
  });

  it("finds the transport itself when the file names no type (Streamable HTTP first, then SSE)", async () => {
    const inferred = await startHub({ remote: { url: `http://127.0.0.1:${port}${route}` } });
    try {
      await inferred.hub.waitForConnections();
      expect(inferred.hub.servers()[0]).toMatchObject({ state: "connected" });
    } finally {
      await inferred.close();
    }
  });
});

describe("server-filesystem and server-memory", () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startHub({
      filesystem: stdio(serverScript("server-filesystem"), "/tmp"),
      memory: { ...stdio(serverScript("server-memory")), env: { MEMORY_FILE_PATH: `/tmp/tandem-mcp-memory-${process.pid}.jsonl` } },
    });
    await t.hub.waitForConnections();
  });
  afterAll(() => t?.close());

  it("server-filesystem works in the roots Tandem offers (they replace its command-line folders)", async () => {
    // The server asks for the roots once initialized and answers from its command line until they
    // arrive: on a loaded machine a first call can come before that.
    await vi.waitFor(async () => expect(JSON.stringify((await t.hub.callTool("filesystem", "list_allowed_directories", {})).content)).toContain(t.folder), {
      timeout: 15_000,
      interval: 200,
    });
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${t.folder}/note.txt`, "contents for the model");
    const read = await t.hub.callTool("filesystem", "read_text_file", { path: `${t.folder}/note.txt` });
    expect(read.content[0]).toMatchObject({ type: "text", text: "contents for the model" });
    const outside = await t.hub.callTool("filesystem", "read_text_file", { path: "/etc/hostname" });
    expect(outside).toMatchObject({ isError: true });
  });

  it("stores and reads a graph through server-memory", async () => {
    await t.hub.callTool("memory", "create_entities", { entities: [{ name: "Tandem", entityType: "project", observations: ["speaks MCP"] }] });
    const graph = await t.hub.callTool("memory", "read_graph", {});
    expect(JSON.stringify(graph)).toContain("speaks MCP");
  });
});
