/**
 * The Anthropic handler driven through the real @anthropic-ai/sdk against the scripted model
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

// Claude Sonnet 5.5, the default model. Deliberately changed from claude-sonnet-4-5, which retires on 2026-11-30.
function handler(overrides: Partial<ApiConfiguration> = {}) {
  return buildApiHandler({
    provider: "anthropic",
    apiKey: "sk-ant-test-key",
    baseUrl: server.anthropicBaseUrl,
    modelId: "claude-sonnet-5-5",
    ...overrides,
  });
}

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("Anthropic answers", () => {
  it("streams text in order and ends normally", async () => {
    server.enqueue({ text: "Hello from the scripted model.", chunkSize: 3 });
    const result = await drain(handler().createMessage("be brief", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe("Hello from the scripted model.");
    expect(result.chunks.filter((c) => c.type === "text").length).toBeGreaterThan(5);
  });

  it("yields thinking as reasoning, then its signature, before the text", async () => {
    server.enqueue({ thinking: { text: "Consider the files first.", signature: "sig-abc123" }, text: "Done." });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.reasoning).toBe("Consider the files first.");
    const signatures = result.chunks.flatMap((c) => (c.type === "reasoning" && c.signature ? [c.signature] : []));
    expect(signatures).toEqual(["sig-abc123"]);
    const lastReasoning = result.chunks.findLastIndex((c) => c.type === "reasoning");
    const firstText = result.chunks.findIndex((c) => c.type === "text");
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it("passes redacted thinking through as opaque data", async () => {
    server.enqueue({ redactedThinking: "EmwKAhgBEgy3va3pzix/LafPsn4a", text: "ok" });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    const redacted = result.chunks.filter((c) => c.type === "reasoning" && c.redactedData !== undefined);
    expect(redacted).toEqual([{ type: "reasoning", reasoning: "", redactedData: "EmwKAhgBEgy3va3pzix/LafPsn4a" }]);
  });

  it("assembles native tool calls from their fragments, numbered from 0", async () => {
    const input = { path: "src/app.ts", options: { lines: [1, 40], note: "ünïcödé \"quoted\"" } };
    server.enqueue({
      text: "Reading two files.",
      toolCalls: [
        { id: "toolu_first", name: "read_file", input },
        { id: "toolu_second", name: "list_files", input: { path: "." } },
      ],
      chunkSize: 4,
    });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    const calls = assembleToolCalls(result.chunks);
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      ["toolu_first", "read_file"],
      ["toolu_second", "list_files"],
    ]);
    expect(JSON.parse(calls[0]?.arguments ?? "")).toEqual(input);
    expect(JSON.parse(calls[1]?.arguments ?? "")).toEqual({ path: "." });
    expect(result.chunks.filter((c) => c.type === "tool_calls").length).toBeGreaterThan(4);
  });

  it("reports usage with cache tokens and the cost at the model's prices", async () => {
    server.enqueue({
      text: "priced",
      usage: { inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 200, cacheReadTokens: 3000 },
    });
    const result = await drain(handler().createMessage("", HELLO));
    const usage = totalUsage(result.chunks);
    expect(usage).toMatchObject({ inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 200, cacheReadTokens: 3000 });
    // Sonnet 5.5: $2 in, $10 out, $2.50 cache write, $0.10 cache read per million.
    expect(usage.totalCost).toBeCloseTo((1000 * 2 + 500 * 10 + 200 * 2.5 + 3000 * 0.1) / 1e6, 10);
  });

  it("prices a whole Haiku 5.5 answer, output included, at the long-prompt rates once the prompt passes 100K", async () => {
    server.enqueue({ text: "long", usage: { inputTokens: 20_000, outputTokens: 1_000, cacheWriteTokens: 5_000, cacheReadTokens: 90_000 } });
    const usage = totalUsage((await drain(handler({ modelId: "claude-haiku-5-5" }).createMessage("", HELLO))).chunks);
    expect(usage.totalCost).toBeCloseTo((20_000 * 0.5 + 1_000 * 2.5 + 5_000 * 0.625 + 90_000 * 0.05) / 1e6, 10);
    server.enqueue({ text: "short", usage: { inputTokens: 20_000, outputTokens: 1_000, cacheReadTokens: 60_000 } });
    const short = totalUsage((await drain(handler({ modelId: "claude-haiku-5-5" }).createMessage("", HELLO))).chunks);
    expect(short.totalCost).toBeCloseTo((20_000 * 0.1 + 1_000 * 0.5 + 60_000 * 0.01) / 1e6, 10);
  });

  it("ends normally on an empty answer, with nothing but usage", async () => {
    server.enqueue({ kind: "fault", fault: "empty" });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.chunks.length).toBeGreaterThan(0);
    expect(result.chunks.every((c) => c.type === "usage" || c.type === "stop")).toBe(true);
  });

  it.each([
    ["max_tokens", "max_tokens"],
    ["end_turn", "end_turn"],
    ["stop_sequence", "end_turn"],
    ["refusal", "content_filter"],
  ] as const)("reports stop_reason %s as the stop reason %s", async (scripted, expected) => {
    server.enqueue({ text: "cut sho", stopReason: scripted });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.chunks.filter((c) => c.type === "stop")).toEqual([{ type: "stop", reason: expected }]);
  });
});

describe("what the Anthropic handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ];
  const HISTORY: ApiMessage[] = [
    { role: "user", content: "first question" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "plan", signature: "sig-A" },
        { type: "thinking", thinking: "unsigned, from another provider" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "text", text: "Let me read it." },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "toolu_1", content: "file body", isError: true },
        { type: "text", text: "and this screenshot" },
        { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" },
      ],
    },
    { role: "assistant", content: "Noted." },
    { role: "user", content: "second question" },
  ];
  const EPHEMERAL = { type: "ephemeral" };

  it("sends the key, the API version, the model and no retries' worth of requests", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HELLO));
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1/messages");
    expect(request?.headers["x-api-key"]).toBe("sk-ant-test-key");
    expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request?.headers["authorization"]).toBeUndefined();
    expect(request?.body).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: 128_000, stream: true });
    expect(request?.body).not.toHaveProperty("thinking");
    expect(request?.body).not.toHaveProperty("temperature");
  });

  it("asks for the default model, Claude Sonnet 5.5, when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: undefined }).createMessage(SYSTEM, HELLO));
    expect(lastBody()).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: 128_000 });
  });

  it("converts the history and marks the system prompt and the last two user messages for caching", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HISTORY, TOOLS));
    const body = lastBody();
    expect(body.system).toEqual([{ type: "text", text: SYSTEM, cache_control: EPHEMERAL }]);
    expect(body.tools).toEqual([{ name: "read_file", description: "Read a file", input_schema: TOOLS[0]?.inputSchema }]);
    expect(body.messages).toEqual([
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-A" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Let me read it." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "file body", is_error: true },
          { type: "text", text: "and this screenshot" },
          {
            type: "image",
            source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
            cache_control: EPHEMERAL,
          },
        ],
      },
      { role: "assistant", content: "Noted." },
      { role: "user", content: [{ type: "text", text: "second question", cache_control: EPHEMERAL }] },
    ]);
  });

  it("sends no cache_control for a model without prompt caching", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: "some-proxy-model" }).createMessage(SYSTEM, HISTORY));
    expect(JSON.stringify(lastBody())).not.toContain("cache_control");
  });

  // What each kind of model gets: thinking per its mode, temperature only where it is accepted.
  it.each<{ model: string; budget?: number; thinking?: unknown; temperature?: number; maxTokens: number }>([
    // Manual extended thinking (Claude 4.5 and earlier): the budget as budget_tokens.
    { model: "claude-haiku-4-5", budget: 4096, thinking: { type: "enabled", budget_tokens: 4096 }, maxTokens: 64_000 },
    { model: "claude-haiku-4-5", temperature: 0, maxTokens: 64_000 },
    // Claude 4.6: adaptive, and a temperature while thinking is off.
    { model: "claude-sonnet-4-6", budget: 4096, thinking: { type: "adaptive" }, maxTokens: 128_000 },
    { model: "claude-sonnet-4-6", temperature: 0, maxTokens: 128_000 },
    // Claude 4.7+ and 5.x: adaptive only, never a temperature; without a budget the model's default.
    { model: "claude-opus-5-5", budget: 4096, thinking: { type: "adaptive" }, maxTokens: 128_000 },
    { model: "claude-sonnet-5-5", maxTokens: 128_000 },
    { model: "claude-opus-4-7", budget: 20_000, thinking: { type: "adaptive" }, maxTokens: 128_000 },
    // An unknown model: no thinking, no temperature, a modest output limit.
    { model: "some-proxy-model", budget: 4096, maxTokens: 8_192 },
  ])("$model with budget $budget: thinking $thinking, temperature $temperature", async (c) => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: c.model, thinkingBudgetTokens: c.budget }).createMessage(SYSTEM, HELLO));
    const body = lastBody();
    expect(body.max_tokens).toBe(c.maxTokens);
    expect(body.thinking).toEqual(c.thinking);
    expect(body.temperature).toEqual(c.temperature);
  });

  it("refuses an image type Anthropic does not accept, before sending anything", async () => {
    const messages: ApiMessage[] = [{ role: "user", content: [{ type: "image", mediaType: "image/bmp", data: "Qk0=" }] }];
    const error = expectApiError(await drain(handler().createMessage("", messages)), "bad_request");
    expect(error.message).toContain("image/bmp");
    expect(server.requests).toHaveLength(0);
  });

  it("reports a missing API key as an auth error without a request", async () => {
    const error = expectApiError(await drain(handler({ apiKey: undefined }).createMessage("", HELLO)), "auth");
    expect(error.message).toMatch(/API key/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("Anthropic faults", () => {
  const cases: { turn: FaultTurn; kind: string; status?: number }[] = [
    { turn: { kind: "fault", fault: "server_error" }, kind: "server_error", status: 500 },
    { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 529 },
    { turn: { kind: "fault", fault: "auth" }, kind: "auth", status: 401 },
    { turn: { kind: "fault", fault: "bad_request" }, kind: "bad_request", status: 400 },
    { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded", status: 400 },
    { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "overloaded" },
    { turn: { kind: "fault", fault: "drop_connection", text: "partial answer" }, kind: "connection_lost" },
    { turn: { kind: "fault", fault: "truncated", text: "partial answer" }, kind: "truncated" },
    { turn: { kind: "fault", fault: "stall", text: "partial answer" }, kind: "stalled" },
  ];

  it.each(cases)("$turn.fault -> $kind, after exactly one request", async ({ turn, kind, status }) => {
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
    server.enqueue({ kind: "fault", fault: "rate_limit", retryAfter: 7 }, { text: "a retry would get this" });
    const error = expectApiError(await drain(handler().createMessage("", HELLO)), "rate_limited");
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("a refused connection -> connection_lost", async () => {
    const url = server.anthropicBaseUrl;
    await server.close();
    const result = await drain(handler({ baseUrl: url }).createMessage("", HELLO));
    expect(expectApiError(result, "connection_lost").message).toMatch(/could not connect/);
    server = await startScriptedModelServer();
  });
});

describe("Anthropic abort", () => {
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
    expect(result.text.length).toBeLessThan(200);
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

  it("abort() before iteration starts sends nothing", async () => {
    server.enqueue({ text: "never sent" });
    const api = handler();
    const stream = api.createMessage("", HELLO);
    api.abort();
    expectApiError(await drain(stream), "aborted");
    expect(server.requests).toHaveLength(0);
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
