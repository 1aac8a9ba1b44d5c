/**
 * The OpenAI-compatible handler driven through the real openai SDK against the scripted model
 * server: what it yields, what it sends, and how every fault comes out.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApiHandler, type ApiConfiguration } from "../../src/api/index.js";
import type { ApiMessage, ToolSpec } from "../../src/api/types.js";
import type { FaultTurn } from "../support/script.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { assembleToolCalls, drain, expectApiError, timeToSettle, totalUsage } from "./stream-helpers.js";

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

function handler(overrides: Partial<ApiConfiguration> = {}) {
  return buildApiHandler({
    provider: "openai",
    apiKey: "sk-openai-test-key",
    baseUrl: server.openaiBaseUrl,
    modelId: "gpt-4.1",
    ...overrides,
  });
}

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("OpenAI answers", () => {
  it("streams text in order and ends normally", async () => {
    server.enqueue({ text: "Hello from the scripted model.", chunkSize: 3 });
    const result = await drain(handler().createMessage("be brief", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe("Hello from the scripted model.");
    expect(result.chunks.filter((c) => c.type === "text").length).toBeGreaterThan(5);
  });

  it("yields reasoning_content as reasoning before the text", async () => {
    server.enqueue({ thinking: { text: "Think about the tests." }, text: "Answer." });
    const result = await drain(handler({ modelId: "deepseek-flash" }).createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.reasoning).toBe("Think about the tests.");
    expect(result.chunks.findLastIndex((c) => c.type === "reasoning")).toBeLessThan(
      result.chunks.findIndex((c) => c.type === "text"),
    );
  });

  it("passes tool call fragments through by index, so they assemble into whole calls", async () => {
    const input = { path: "src/app.ts", options: { lines: [1, 40], note: "ünïcödé \"quoted\"" } };
    server.enqueue({
      toolCalls: [
        { id: "call_first", name: "read_file", input },
        { id: "call_second", name: "list_files", input: { path: "." } },
      ],
      chunkSize: 4,
    });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    const calls = assembleToolCalls(result.chunks);
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      ["call_first", "read_file"],
      ["call_second", "list_files"],
    ]);
    expect(JSON.parse(calls[0]?.arguments ?? "")).toEqual(input);
    expect(JSON.parse(calls[1]?.arguments ?? "")).toEqual({ path: "." });
  });

  it("takes cached tokens out of the prompt count and prices them as cache reads", async () => {
    server.enqueue({ text: "priced", usage: { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 3000 } });
    const result = await drain(handler().createMessage("", HELLO));
    const usage = totalUsage(result.chunks);
    // The wire said prompt_tokens 4000 of which cached_tokens 3000.
    expect(usage).toMatchObject({ inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 0, cacheReadTokens: 3000 });
    // GPT-4.1: $2 in, $8 out, $0.50 cached input per million.
    expect(usage.totalCost).toBeCloseTo((1000 * 2 + 500 * 8 + 3000 * 0.5) / 1e6, 10);
  });

  it("prices GPT-6.2 Sol at its rates, and a prompt past 272K at the long-context rates", async () => {
    server.enqueue({ text: "short", usage: { inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 50_000 } });
    const short = totalUsage((await drain(handler({ modelId: "gpt-6.2-sol" }).createMessage("", HELLO))).chunks);
    expect(short.totalCost).toBeCloseTo((10_000 * 2 + 2_000 * 10 + 50_000 * 0.1) / 1e6, 10);
    server.enqueue({ text: "long", usage: { inputTokens: 100_000, outputTokens: 2_000, cacheReadTokens: 200_000 } });
    const long = totalUsage((await drain(handler({ modelId: "gpt-6.2-sol" }).createMessage("", HELLO))).chunks);
    // Input and cached input doubled, output 1.5x, for the whole request.
    expect(long.totalCost).toBeCloseTo((100_000 * 4 + 2_000 * 15 + 200_000 * 0.2) / 1e6, 10);
  });

  it("ends normally on an empty answer", async () => {
    server.enqueue({ kind: "fault", fault: "empty" });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.chunks.filter((c) => c.type !== "usage")).toEqual([{ type: "stop", reason: "end_turn" }]);
  });

  it.each([
    ["max_tokens", "max_tokens"],
    ["end_turn", "end_turn"],
    ["tool_use", "tool_use"],
  ] as const)("reports finish_reason for a %s answer as the stop reason %s", async (scripted, expected) => {
    server.enqueue({ text: "cut sho", stopReason: scripted });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.chunks.filter((c) => c.type === "stop")).toEqual([{ type: "stop", reason: expected }]);
  });
});

describe("what the OpenAI handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ];

  it("sends a bearer key, the system prompt first, usage in the stream and temperature 0", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HELLO, TOOLS));
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers["authorization"]).toBe("Bearer sk-openai-test-key");
    expect(request?.body).toMatchObject({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "hello" },
      ],
      tools: [{ type: "function", function: { name: "read_file", description: "Read a file", parameters: TOOLS[0]?.inputSchema } }],
    });
  });

  it("sends a placeholder key to a local server when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ apiKey: undefined, modelId: "qwen2.5-coder:7b" }).createMessage("", HELLO));
    expect(server.requests[0]?.headers["authorization"]).toBe("Bearer not-needed");
  });

  // Only models known to accept a temperature get one; reasoning models refuse it at their default effort.
  it.each([
    ["gpt-4.1", 0],
    ["gpt-4o-mini-2024-07-18", 0],
    ["gpt-6.2-sol", undefined],
    ["openai/gpt-6-luna", undefined],
    ["deepseek-v4-pro", undefined],
    ["qwen2.5-coder:7b", undefined],
  ])("%s gets temperature %s and no reasoning parameters", async (model, temperature) => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: model, thinkingBudgetTokens: 4096 }).createMessage("", HELLO));
    const body = lastBody();
    expect(body.model).toBe(model);
    expect(body.temperature).toEqual(temperature);
    for (const key of ["reasoning_effort", "thinking", "max_tokens"]) expect(body, key).not.toHaveProperty(key);
  });

  it("asks for the default model, GPT-6.2 Sol, when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: undefined }).createMessage("", HELLO));
    expect(lastBody().model).toBe("gpt-6.2-sol");
    expect(lastBody()).not.toHaveProperty("temperature");
  });

  it("converts tool use, tool results and images, and drops thinking", async () => {
    server.enqueue({ text: "ok" });
    const history: ApiMessage[] = [
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-A" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Let me read it." },
          { type: "tool_use", id: "call_1", name: "read_file", input: { path: "a.ts" } },
          { type: "tool_use", id: "call_2", name: "take_screenshot", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "call_1", content: "file body" },
          {
            type: "tool_result",
            toolUseId: "call_2",
            content: [
              { type: "text", text: "screenshot taken" },
              { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
            ],
          },
          { type: "text", text: "what now?" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Noted." }] },
      { role: "user", content: [{ type: "text", text: "part one" }, { type: "text", text: "part two" }] },
    ];
    await drain(handler().createMessage(SYSTEM, history));
    expect(lastBody().messages).toEqual([
      { role: "system", content: SYSTEM },
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: "Let me read it.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
          { id: "call_2", type: "function", function: { name: "take_screenshot", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "file body" },
      { role: "tool", tool_call_id: "call_2", content: "screenshot taken\n(1 image(s) attached in the next message)" },
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "text", text: "what now?" },
        ],
      },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "part one\n\npart two" },
    ]);
  });
});

describe("OpenAI faults", () => {
  const cases: { turn: FaultTurn; kind: string; status?: number }[] = [
    { turn: { kind: "fault", fault: "server_error" }, kind: "server_error", status: 500 },
    { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 503 },
    { turn: { kind: "fault", fault: "auth" }, kind: "auth", status: 401 },
    { turn: { kind: "fault", fault: "bad_request" }, kind: "bad_request", status: 400 },
    { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded", status: 400 },
    {
      turn: { kind: "fault", fault: "context_window_exceeded", flavor: "openrouter" },
      kind: "context_window_exceeded",
      status: 400,
    },
    { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "server_error" },
    { turn: { kind: "fault", fault: "drop_connection", text: "partial answer" }, kind: "connection_lost" },
    { turn: { kind: "fault", fault: "truncated", text: "partial answer" }, kind: "truncated" },
    { turn: { kind: "fault", fault: "stall", text: "partial answer" }, kind: "stalled" },
  ];

  it.each(cases)("$turn.fault $turn.flavor -> $kind, after exactly one request", async ({ turn, kind, status }) => {
    server.enqueue(turn, { text: "a retry would get this" });
    const result = await drain(handler({ streamIdleTimeoutMs: 300 }).createMessage("", HELLO));
    const error = expectApiError(result, kind as never);
    expect(error.status).toBe(status);
    if (status !== undefined) expect(error.requestId).toMatch(/^req_/);
    // A dropped socket may take its last unread bytes with it, so only a prefix is certain.
    if (turn.text) expect(turn.text.startsWith(result.text)).toBe(true);
    if (turn.text && turn.fault !== "drop_connection") expect(result.text).toBe(turn.text);
    expect(server.requests).toHaveLength(1);
  });

  it("rate_limit -> rate_limited with the server's retry-after, after exactly one request", async () => {
    server.enqueue({ kind: "fault", fault: "rate_limit", retryAfter: 3 }, { text: "a retry would get this" });
    const error = expectApiError(await drain(handler().createMessage("", HELLO)), "rate_limited");
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(3);
    expect(server.requests).toHaveLength(1);
  });
});

describe("OpenAI abort", () => {
  it("abort() during a stream ends it with `aborted` within a second", async () => {
    server.enqueue({ text: "x".repeat(200), chunkSize: 1, delayMs: 50 });
    const api = handler();
    let abortedAt = 0;
    const result = await drain(api.createMessage("", HELLO), (chunk) => {
      if (chunk.type === "text" && abortedAt === 0) {
        abortedAt = performance.now();
        api.abort();
      }
    });
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expectApiError(result, "aborted");
  });

  it("abort() during a stall ends it with `aborted` within a second", async () => {
    server.enqueue({ kind: "fault", fault: "stall", text: "waiting" });
    const api = handler(); // the default 60 s idle timeout: only the abort can end this
    let abortedAt: number | undefined;
    const result = await drain(api.createMessage("", HELLO), (chunk) => {
      if (chunk.type === "text" && abortedAt === undefined) {
        abortedAt = Number.NaN;
        setTimeout(() => {
          abortedAt = performance.now();
          api.abort();
        }, 100);
      }
    });
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - (abortedAt ?? 0)).toBeLessThan(1000);
    expectApiError(result, "aborted");
  });

  it("leaving the loop early ends the request, and the handler serves the next one", async () => {
    server.enqueue({ text: "y".repeat(100), chunkSize: 1, delayMs: 20 }, { text: "second answer" });
    const api = handler();
    const elapsed = await timeToSettle(
      (async () => {
        for await (const chunk of api.createMessage("", HELLO)) {
          if (chunk.type === "text") break;
        }
      })(),
    );
    expect(elapsed).toBeLessThan(1000);
    expect((await drain(api.createMessage("", HELLO))).text).toBe("second answer");
  });
});
