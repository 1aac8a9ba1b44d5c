/**
 * The OpenAI Responses API handler driven through the real openai SDK against the scripted model
 * server: what it yields, what it sends, and how every fault comes out.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveConfiguration, type ApiConfiguration } from "../../src/api/config.js";
import { OpenAiResponsesHandler } from "../../src/api/providers/openai-responses.js";
import { toResponsesInput } from "../../src/api/providers/openai-responses-format.js";
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

function handler(overrides: Partial<ApiConfiguration> = {}): OpenAiResponsesHandler {
  const config = resolveConfiguration({
    provider: "openai",
    apiKey: "sk-openai-test-key",
    baseUrl: server.openaiBaseUrl,
    modelId: "gpt-6.2-sol",
    ...overrides,
  });
  return new OpenAiResponsesHandler(config);
}

const HELLO: ApiMessage[] = [{ role: "user", content: "hello" }];

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("the server received no request");
  return request.body;
}

describe("Responses API answers", () => {
  it("streams text in order and ends normally", async () => {
    server.enqueue({ text: "Hello from the scripted model.", chunkSize: 3 });
    const result = await drain(handler().createMessage("be brief", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe("Hello from the scripted model.");
    expect(result.chunks.filter((c) => c.type === "text").length).toBeGreaterThan(5);
  });

  it("yields the reasoning summary as reasoning before the text, paragraphs kept apart", async () => {
    server.enqueue({ thinking: { text: "**Plan**\n\nThink about the tests." }, text: "Answer.", chunkSize: 5 });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.reasoning).toBe("**Plan**\n\nThink about the tests.");
    expect(result.text).toBe("Answer.");
    expect(result.chunks.findLastIndex((c) => c.type === "reasoning")).toBeLessThan(result.chunks.findIndex((c) => c.type === "text"));
  });

  it("goes on without reasoning summaries when the organisation is not verified for them, and does not ask again", async () => {
    server.enqueue({ kind: "fault", fault: "bad_request", flavor: "unverified_org" }, { thinking: { text: "hidden" }, text: "First." }, { text: "Second." });
    const responses = handler();
    const first = await drain(responses.createMessage("", HELLO));
    expect(first.error).toBeUndefined();
    expect(first.text).toBe("First.");
    expect(first.reasoning).toBe("");
    const second = await drain(responses.createMessage("", HELLO));
    expect(second.text).toBe("Second.");
    expect(server.requests.map((r) => (r.body.reasoning as { summary?: string } | undefined)?.summary ?? null)).toEqual(["auto", null, null]);
  });

  it("yields tool call fragments that assemble into whole calls with their ids, names and JSON input", async () => {
    const input = { path: "src/app.ts", options: { lines: [1, 40], note: 'ünïcödé "quoted"' } };
    server.enqueue({
      text: "Reading.",
      toolCalls: [
        { id: "call_first", name: "read_file", input },
        { id: "call_second", name: "list_files", input: { path: "." } },
      ],
      chunkSize: 4,
    });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe("Reading.");
    // Indexes are output positions: the message is item 0, the calls items 1 and 2.
    const calls = assembleToolCalls(result.chunks).filter((call) => call !== undefined);
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      ["call_first", "read_file"],
      ["call_second", "list_files"],
    ]);
    expect(JSON.parse(calls[0]?.arguments ?? "")).toEqual(input);
    expect(JSON.parse(calls[1]?.arguments ?? "")).toEqual({ path: "." });
    expect(result.chunks.filter((c) => c.type === "tool_calls").length).toBeGreaterThan(6);
  });

  it("takes cached tokens out of the input count and prices GPT-6.2 Sol at its rates", async () => {
    server.enqueue({ text: "priced", usage: { inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 50_000 } });
    const usage = totalUsage((await drain(handler().createMessage("", HELLO))).chunks);
    // The wire said input_tokens 60000 of which cached_tokens 50000.
    expect(usage).toMatchObject({ inputTokens: 10_000, outputTokens: 2_000, cacheWriteTokens: 0, cacheReadTokens: 50_000 });
    expect(usage.totalCost).toBeCloseTo((10_000 * 2 + 2_000 * 10 + 50_000 * 0.1) / 1e6, 10);
  });

  it("prices a prompt past 272K at the long-context rates", async () => {
    server.enqueue({ text: "long", usage: { inputTokens: 100_000, outputTokens: 2_000, cacheReadTokens: 200_000 } });
    const usage = totalUsage((await drain(handler().createMessage("", HELLO))).chunks);
    expect(usage.totalCost).toBeCloseTo((100_000 * 4 + 2_000 * 15 + 200_000 * 0.2) / 1e6, 10);
  });

  it("ends normally with its usage when the answer was cut off (response.incomplete)", async () => {
    server.enqueue({ text: "cut sho", stopReason: "max_tokens", usage: { inputTokens: 40, outputTokens: 9 } });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe("cut sho");
    expect(totalUsage(result.chunks)).toMatchObject({ inputTokens: 40, outputTokens: 9 });
    expect(result.chunks.filter((c) => c.type === "stop")).toEqual([{ type: "stop", reason: "max_tokens" }]);
  });

  it("ends normally on an empty answer", async () => {
    server.enqueue({ kind: "fault", fault: "empty" });
    const result = await drain(handler().createMessage("", HELLO));
    expect(result.error).toBeUndefined();
    expect(result.chunks.filter((c) => c.type !== "usage")).toEqual([{ type: "stop", reason: "end_turn" }]);
  });
});

describe("what the Responses API handler sends", () => {
  const SYSTEM = "You are Tandem, a coding agent.";
  const TOOLS: ToolSpec[] = [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ];

  it("posts to /v1/responses with the key, instructions, store false, function tools and a reasoning summary", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler().createMessage(SYSTEM, HELLO, TOOLS));
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request).toMatchObject({ protocol: "openai-responses", path: "/v1/responses" });
    expect(request?.headers["authorization"]).toBe("Bearer sk-openai-test-key");
    expect(request?.body).toEqual({
      model: "gpt-6.2-sol",
      instructions: SYSTEM,
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] }],
      stream: true,
      store: false,
      tools: [{ type: "function", name: "read_file", description: "Read a file", parameters: TOOLS[0]?.inputSchema, strict: false }],
      reasoning: { summary: "auto" },
    });
  });

  it("gives a model that does not reason temperature 0 and no reasoning; leaves out empty instructions and tools", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ modelId: "gpt-4o" }).createMessage("  ", HELLO, []));
    const body = lastBody();
    expect(body).toMatchObject({ model: "gpt-4o", temperature: 0, store: false });
    for (const key of ["reasoning", "instructions", "tools"]) expect(body, key).not.toHaveProperty(key);
  });

  it("sends a placeholder key to a local server when none is set", async () => {
    server.enqueue({ text: "ok" });
    await drain(handler({ apiKey: undefined }).createMessage("", HELLO));
    expect(server.requests[0]?.headers["authorization"]).toBe("Bearer not-needed");
  });

  it("converts tool use, tool results and images into input items, and drops thinking", async () => {
    server.enqueue({ text: "ok" });
    const history: ApiMessage[] = [
      { role: "user", content: "first question" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-A" },
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
      { role: "assistant", content: "Noted." },
    ];
    await drain(handler().createMessage(SYSTEM, history));
    expect(lastBody().input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "first question" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me read it.", annotations: [] }] },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' },
      { type: "function_call", call_id: "call_2", name: "take_screenshot", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "file body" },
      {
        type: "function_call_output",
        call_id: "call_2",
        output: [
          { type: "input_text", text: "screenshot taken" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
        ],
      },
      { type: "message", role: "user", content: [{ type: "input_text", text: "what now?" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Noted.", annotations: [] }] },
    ]);
  });

  it("fails with bad_request, before any request, for a block it cannot send", async () => {
    const history = [{ role: "assistant", content: [{ type: "image", mediaType: "image/png", data: "AAAA" }] }] as ApiMessage[];
    const error = expectApiError(await drain(handler().createMessage("", history)), "bad_request");
    expect(error.message).toMatch(/no place for a "image" block in message 1 \(assistant\)/);
    expect(server.requests).toHaveLength(0);
  });

  it("fails with bad_request when there is no message at all", async () => {
    expectApiError(await drain(handler().createMessage("", [])), "bad_request");
    expect(server.requests).toHaveLength(0);
  });
});

describe("toResponsesInput", () => {
  it("keeps the order of an answer's text and calls, and joins neighbouring text blocks", () => {
    const input = toResponsesInput([
      {
        role: "assistant",
        content: [
          { type: "text", text: "First" },
          { type: "text", text: "second." },
          { type: "tool_use", id: "c1", name: "a", input: { n: 1 } },
          { type: "text", text: "Then more." },
          { type: "redacted_thinking", data: "opaque" },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "First\nsecond.", annotations: [] }] },
      { type: "function_call", call_id: "c1", name: "a", arguments: '{"n":1}' },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Then more.", annotations: [] }] },
    ]);
  });

  it("marks failed tool results, as text and as content parts", () => {
    const input = toResponsesInput([
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "c1", content: "no such file", isError: true },
          {
            type: "tool_result",
            toolUseId: "c2",
            isError: true,
            content: [{ type: "image", mediaType: "image/jpeg", data: "/9j/" }],
          },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: "function_call_output", call_id: "c1", output: "Error: no such file" },
      {
        type: "function_call_output",
        call_id: "c2",
        output: [
          { type: "input_text", text: "Error:" },
          { type: "input_image", image_url: "data:image/jpeg;base64,/9j/", detail: "auto" },
        ],
      },
    ]);
  });

  it("puts tool results before the person's own words, and sends nothing for a thinking-only answer", () => {
    const input = toResponsesInput([
      { role: "assistant", content: [{ type: "thinking", thinking: "hmm", signature: "s" }] },
      {
        role: "user",
        content: [
          { type: "image", mediaType: "image/png", data: "AAAA" },
          { type: "tool_result", toolUseId: "c1", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
        ],
      },
    ]);
    expect(input).toEqual([
      { type: "function_call_output", call_id: "c1", output: "a\nb" },
      { type: "message", role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto" }] },
    ]);
  });

  it.each([
    ["user", { type: "tool_use", id: "c1", name: "a", input: {} }, /"tool_use" block in message 1 \(user\)/],
    ["assistant", { type: "tool_result", toolUseId: "c1", content: "x" }, /"tool_result" block in message 1 \(assistant\)/],
    ["user", { type: "document", data: "x" }, /"document" block in message 1 \(user\)/],
  ] as const)("refuses a %s message holding %o", (role, block, message) => {
    expect(() => toResponsesInput([{ role, content: [block as never] }])).toThrow(message);
  });
});

describe("Responses API faults", () => {
  const cases: { turn: FaultTurn; kind: string; status?: number }[] = [
    { turn: { kind: "fault", fault: "server_error" }, kind: "server_error", status: 500 },
    { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 503 },
    { turn: { kind: "fault", fault: "auth" }, kind: "auth", status: 401 },
    { turn: { kind: "fault", fault: "bad_request" }, kind: "bad_request", status: 400 },
    // OpenAI reports this one inside the stream (response.failed), so there is no status.
    { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded" },
    { turn: { kind: "fault", fault: "context_window_exceeded", flavor: "openrouter" }, kind: "context_window_exceeded", status: 400 },
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

  it("response.failed keeps OpenAI's own words in the message", async () => {
    server.enqueue({ kind: "fault", fault: "error_mid_stream" });
    const error = expectApiError(await drain(handler().createMessage("", HELLO)), "server_error");
    expect(error.message).toMatch(/^OpenAI-compatible server at 127\.0\.0\.1:\d+: server error \(in stream\): An error occurred/);
    expect(error.retryable).toBe(true);
  });

  it("rate_limit -> rate_limited with the server's retry-after, after exactly one request", async () => {
    server.enqueue({ kind: "fault", fault: "rate_limit", retryAfter: 3 }, { text: "a retry would get this" });
    const error = expectApiError(await drain(handler().createMessage("", HELLO)), "rate_limited");
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(3);
    expect(server.requests).toHaveLength(1);
  });
});

describe("Responses API abort", () => {
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
