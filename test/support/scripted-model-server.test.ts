/**
 * The scripted model server itself: turn order across endpoints, request recording, the
 * control routes, pacing, disconnects, close(), and the standalone serve.ts process.
 * The wire formats are checked per protocol in anthropic-wire.test.ts and openai-wire.test.ts.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseScript } from "./parse-script.js";
import type { RecordedRequest } from "./script.js";
import { startScriptedModelServer, type ScriptedModelServer } from "./scripted-model-server.js";

let server: ScriptedModelServer;
let anthropic: Anthropic;
let openai: OpenAI;

beforeEach(async () => {
  server = await startScriptedModelServer();
  anthropic = new Anthropic({ baseURL: server.anthropicBaseUrl, apiKey: "sk-ant-test", maxRetries: 0 });
  openai = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: "sk-openai-test", maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

async function anthropicText(content = "hello"): Promise<string> {
  const stream = await anthropic.messages.create({
    model: "claude-test",
    max_tokens: 100,
    messages: [{ role: "user", content }],
    stream: true,
  });
  let text = "";
  for await (const event of stream) {
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
  }
  return text;
}

async function openaiText(content = "hello", client = openai): Promise<string> {
  const stream = await client.chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content }], stream: true });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  return text;
}

describe("script and recording", () => {
  it("consumes one turn per request in order, whichever the endpoint", async () => {
    server.enqueue({ text: "first" }, { text: "second" });
    server.enqueue({ text: "third" });
    expect(await anthropicText()).toBe("first");
    expect(await openaiText()).toBe("second");
    expect(await anthropicText()).toBe("third");
    expect(server.requests.map((r) => [r.protocol, r.turnIndex])).toEqual([
      ["anthropic", 0],
      ["openai", 1],
      ["anthropic", 2],
    ]);
  });

  it("records the path, lower-cased headers and the parsed body", async () => {
    server.enqueue({ text: "a" }, { text: "b" });
    await anthropicText("from anthropic");
    await openaiText("from openai");
    const [first, second] = server.requests as RecordedRequest[];
    expect(first).toMatchObject({ protocol: "anthropic", path: "/v1/messages" });
    expect(first?.headers.authorization).toBe("Bearer sk-ant-test");
    expect(first?.headers["content-type"]).toMatch(/application\/json/);
    expect(first?.body).toMatchObject({ model: "claude-test", messages: [{ role: "user", content: "from anthropic" }], stream: true });
    expect(second).toMatchObject({ protocol: "openai", path: "/v1/chat/completions" });
    expect(second?.headers.authorization).toBe("Bearer sk-openai-test");
    expect(second?.body).toMatchObject({ model: "gpt-test", messages: [{ role: "user", content: "from openai" }] });
    for (const request of [first, second]) {
      expect(Object.keys(request?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(true);
    }
  });

  it("answers 500 'script exhausted (request N)' once the script runs out, on both endpoints", async () => {
    server.enqueue({ text: "only" });
    await anthropicText();
    await expect(anthropicText()).rejects.toThrow(/scripted model server: script exhausted \(request 2\)/);
    await expect(openaiText()).rejects.toThrow(/scripted model server: script exhausted \(request 3\)/);
    await expect(openaiText()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(server.requests.map((r) => r.turnIndex)).toEqual([0, -1, -1, -1]);
  });

  it("lets the SDKs retry on their own when maxRetries is not 0 (each retry is a request)", async () => {
    const retrying = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: "k", maxRetries: 1 });
    server.enqueue({ kind: "fault", fault: "rate_limit", retryAfter: 0 }, { text: "after retry" });
    expect(await openaiText("retry me", retrying)).toBe("after retry");
    expect(server.requests.map((r) => r.turnIndex)).toEqual([0, 1]);
  });

  it("answers 404 JSON on unknown paths and 400 on non-streaming or unreadable requests", async () => {
    const missing = await fetch(`${server.url}/v1/models`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { message: "scripted model server: no route for GET /v1/models" } });

    server.enqueue({ text: "kept for later" });
    const plain = await fetch(`${server.openaiBaseUrl}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m" }) });
    expect(plain.status).toBe(400);
    expect(await plain.text()).toMatch(/only streaming requests/);
    const garbage = await fetch(`${server.url}/v1/messages`, { method: "POST", body: "{not json" });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: /not valid JSON/ } });
    // Neither consumed the turn.
    expect(await anthropicText()).toBe("kept for later");
  });

  it("waitForRequests resolves once enough requests arrived, and rejects clearly on timeout", async () => {
    server.enqueue({ text: "x" });
    const waiting = server.waitForRequests(1);
    await anthropicText();
    await expect(waiting).resolves.toBeUndefined();
    await expect(server.waitForRequests(2, 50)).rejects.toThrow("scripted model server: waited 50 ms for 2 requests, got 1");
  });
});

describe("control routes", () => {
  it("POST /__script appends turns and GET /__requests lists model requests only", async () => {
    const appended = await fetch(`${server.url}/__script`, { method: "POST", body: JSON.stringify([{ text: "via http" }]) });
    expect(await appended.json()).toEqual({ appended: 1, pending: 1 });
    expect(await openaiText()).toBe("via http");
    const listed = (await (await fetch(`${server.url}/__requests`)).json()) as RecordedRequest[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ protocol: "openai", turnIndex: 0, body: { model: "gpt-test" } });
  });

  it("DELETE /__script drops the turns not served yet", async () => {
    server.enqueue({ text: "served" }, { text: "left over" }, { text: "also left" });
    expect(await anthropicText()).toBe("served");
    const response = await fetch(`${server.url}/__script`, { method: "DELETE" });
    expect(await response.json()).toEqual({ dropped: 2 });
    server.enqueue({ text: "fresh" });
    expect(await anthropicText()).toBe("fresh");
  });

  it("POST /__script rejects a malformed script with a message naming the turn", async () => {
    const response = await fetch(`${server.url}/__script`, { method: "POST", body: JSON.stringify([{ kind: "fault", fault: "explode" }]) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/turn 0\.fault must be one of rate_limit/);
  });

  it("parseScript accepts { turns } and names the field that is wrong", () => {
    expect(parseScript({ turns: [{ text: "a" }, { kind: "fault", fault: "stall" }] }, "s.json")).toHaveLength(2);
    expect(() => parseScript("nope", "s.json")).toThrow('s.json: a script is a JSON array of turns or { "turns": [...] }');
    expect(() => parseScript([{ toolCalls: [{ input: {} }] }], "s.json")).toThrow("s.json: turn 0.toolCalls[0].name is required");
    expect(() => parseScript([{ chunkSize: "big" }], "s.json")).toThrow('s.json: turn 0.chunkSize must be a number, got "big"');
  });
});

describe("pacing, disconnects and close", () => {
  it("flushes each delta as it is written and waits delayMs between them", async () => {
    server.enqueue({ text: "abcdefghij", chunkSize: 5, delayMs: 250 });
    const stream = await anthropic.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }], stream: true });
    const arrivals: number[] = [];
    for await (const event of stream) if (event.type === "content_block_delta") arrivals.push(performance.now());
    expect(arrivals).toHaveLength(2);
    // A lower bound set by the server's own pause: the second piece cannot arrive earlier.
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(200);
  });

  it("stops writing quietly when the client leaves mid-stream, and keeps serving", async () => {
    const errors = vi.spyOn(console, "error");
    server.enqueue({ text: "a long answer the client will not wait for", chunkSize: 2, delayMs: 5 }, { text: "next" });
    const stream = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }], stream: true });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break;
    expect(await openaiText()).toBe("next");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("close() ends stalled streams too, within a second", async () => {
    server.enqueue({ kind: "fault", fault: "stall" }, { kind: "fault", fault: "stall" });
    const stalledA = await anthropic.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }], stream: true });
    const stalledB = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }], stream: true });
    const drainA = (async () => {
      for await (const _ of stalledA);
    })().catch((e: unknown) => e);
    const drainB = (async () => {
      for await (const _ of stalledB);
    })().catch((e: unknown) => e);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(5_000); // stalled streams would hold it for ever
    expect(await drainA).toMatchObject({ message: "terminated" });
    expect(await drainB).toMatchObject({ message: "terminated" });
    server = await startScriptedModelServer(); // afterEach closes this one
  });
});

describe("serve.ts", () => {
  const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

  function runServe(args: string[]): { url: Promise<string>; exit: Promise<{ code: number | null; stderr: string }>; kill: () => void } {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve.ts", ...args], { cwd: repoRoot });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
    const url = new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (data: Buffer) => {
        stdout += data.toString();
        const match = /^scripted-model-server listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exit.then(({ code }) => reject(new Error(`serve.ts exited (${code}) before listening: ${stderr}`)));
    });
    return { url, exit, kill: () => child.kill("SIGTERM") };
  }

  it("serves a script file, takes more turns over HTTP and reports requests", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scripted-serve-"));
    const scriptFile = join(dir, "script.json");
    await writeFile(scriptFile, JSON.stringify({ turns: [{ text: "from the file" }] }));
    const serve = runServe(["--port", "0", "--script", scriptFile]);
    try {
      const url = await serve.url;
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "k", maxRetries: 0 });
      expect(await openaiText("one", client)).toBe("from the file");
      await fetch(`${url}/__script`, { method: "POST", body: JSON.stringify([{ text: "from http" }]) });
      expect(await openaiText("two", client)).toBe("from http");
      const requests = (await (await fetch(`${url}/__requests`)).json()) as RecordedRequest[];
      expect(requests.map((r) => r.body.messages)).toEqual([[{ role: "user", content: "one" }], [{ role: "user", content: "two" }]]);
    } finally {
      serve.kill();
      await rm(dir, { recursive: true, force: true });
    }
    expect((await serve.exit).code).toBe(0);
  });

  it("exits 1 with a clear message when the script file is malformed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scripted-serve-"));
    const scriptFile = join(dir, "bad.json");
    await writeFile(scriptFile, JSON.stringify([{ kind: "answer", text: 42 }]));
    const serve = runServe(["--script", scriptFile]);
    serve.url.catch(() => undefined); // the exit below is what this test checks
    const { code, stderr } = await serve.exit;
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stderr).toContain(`${scriptFile}: turn 0.text must be a string, got 42`);
  });
});
