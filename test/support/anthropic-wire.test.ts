/**
 * The scripted server's Anthropic wire, checked by the real @anthropic-ai/sdk client: what it
 * parses from each scripted answer, and what it throws (or how its stream ends) for each fault.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScriptTurn } from "./script.js";
import { startScriptedModelServer, type ScriptedModelServer } from "./scripted-model-server.js";

let server: ScriptedModelServer;
let client: Anthropic;

beforeEach(async () => {
  server = await startScriptedModelServer();
  client = new Anthropic({ baseURL: server.anthropicBaseUrl, apiKey: "test-key", maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

const REQUEST = {
  model: "claude-test",
  max_tokens: 1024,
  messages: [{ role: "user" as const, content: "Read the file please" }],
  stream: true as const,
};

async function collect(turn: ScriptTurn): Promise<RawMessageStreamEvent[]> {
  server.enqueue(turn);
  const stream = await client.messages.create(REQUEST);
  const events: RawMessageStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Runs the request and returns what the SDK threw (failing if it threw nothing). */
async function failure(turn: ScriptTurn): Promise<unknown> {
  try {
    await collect(turn);
  } catch (error) {
    return error;
  }
  throw new Error("expected the SDK to throw");
}

function deltas(events: RawMessageStreamEvent[]): unknown[] {
  return events.flatMap((e) => (e.type === "content_block_delta" ? [e.delta] : []));
}

describe("answers", () => {
  it("streams text in chunkSize pieces between message_start and message_stop", async () => {
    const events = await collect({ text: "The quick brown fox jumps", chunkSize: 10 });
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(deltas(events)).toEqual([
      { type: "text_delta", text: "The quick " },
      { type: "text_delta", text: "brown fox " },
      { type: "text_delta", text: "jumps" },
    ]);
    const start = events[0];
    expect(start?.type === "message_start" && start.message.id).toMatch(/^msg_/);
    expect(start?.type === "message_start" && start.message.model).toBe("claude-test");
  });

  it("accumulates thinking with its signature, redacted thinking, text and tool calls in order", async () => {
    server.enqueue({
      thinking: { text: "The user wants a file read.", signature: "sig-abc" },
      redactedThinking: "ENCRYPTED==",
      text: "I will read it.",
      toolCalls: [
        { name: "read_file", input: { path: "src/index.ts", lines: [1, 20] } },
        { id: "toolu_fixed", name: "list_files", input: {} },
      ],
      chunkSize: 4,
    });
    const message = await client.messages.stream({ ...REQUEST, stream: undefined }).finalMessage();
    expect(message.content).toEqual([
      { type: "thinking", thinking: "The user wants a file read.", signature: "sig-abc" },
      { type: "redacted_thinking", data: "ENCRYPTED==" },
      { type: "text", text: "I will read it." },
      { type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "read_file", input: { path: "src/index.ts", lines: [1, 20] } },
      { type: "tool_use", id: "toolu_fixed", name: "list_files", input: {} },
    ]);
    expect(message.stop_reason).toBe("tool_use");
  });

  it("sends the thinking signature as a signature_delta and tool input as input_json_delta pieces", async () => {
    const events = await collect({
      thinking: { text: "hmm" },
      toolCalls: [{ name: "write", input: { content: "abcdefghij" } }],
      chunkSize: 5,
    });
    const kinds = deltas(events).map((d) => (d as { type: string }).type);
    expect(kinds).toEqual(["thinking_delta", "signature_delta", ...Array(5).fill("input_json_delta")]);
    const signature = deltas(events).find((d) => (d as { type: string }).type === "signature_delta");
    expect((signature as { signature: string }).signature.length).toBeGreaterThan(0);
    const json = deltas(events)
      .flatMap((d) => ((d as { type: string }).type === "input_json_delta" ? [(d as { partial_json: string }).partial_json] : []))
      .join("");
    expect(JSON.parse(json)).toEqual({ content: "abcdefghij" });
  });

  it("reports scripted usage in message_start and message_delta, cache fields included", async () => {
    const events = await collect({
      text: "ok",
      usage: { inputTokens: 1200, outputTokens: 34, cacheWriteTokens: 500, cacheReadTokens: 9000 },
      stopReason: "max_tokens",
    });
    const start = events.find((e) => e.type === "message_start");
    const delta = events.find((e) => e.type === "message_delta");
    expect(start?.type === "message_start" && start.message.usage).toMatchObject({
      input_tokens: 1200,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: 9000,
    });
    expect(delta?.type === "message_delta" && delta.usage).toMatchObject({
      output_tokens: 34,
      input_tokens: 1200,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: 9000,
    });
    expect(delta?.type === "message_delta" && delta.delta.stop_reason).toBe("max_tokens");
  });

  it("estimates usage from the request and answer sizes when none is scripted", async () => {
    const text = "x".repeat(41);
    const events = await collect({ text });
    const start = events.find((e) => e.type === "message_start");
    const delta = events.find((e) => e.type === "message_delta");
    const bodyLength = JSON.stringify(server.requests[0]?.body).length;
    expect(start?.type === "message_start" && start.message.usage.input_tokens).toBe(Math.ceil(bodyLength / 4));
    expect(delta?.type === "message_delta" && delta.usage.output_tokens).toBe(11);
  });
});

describe("faults", () => {
  it.each([
    ["rate_limit", 429, "rate_limit_error", Anthropic.RateLimitError],
    ["server_error", 500, "api_error", Anthropic.InternalServerError],
    ["overloaded", 529, "overloaded_error", Anthropic.InternalServerError],
    ["auth", 401, "authentication_error", Anthropic.AuthenticationError],
    ["bad_request", 400, "invalid_request_error", Anthropic.BadRequestError],
  ] as const)("%s: the SDK throws %i %s", async (fault, status, type, errorClass) => {
    const error = await failure({ kind: "fault", fault });
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, type });
    expect((error as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(/^req_/);
  });

  it("rate_limit sends the scripted retry-after header", async () => {
    const error = (await failure({ kind: "fault", fault: "rate_limit", retryAfter: 7 })) as InstanceType<typeof Anthropic.APIError>;
    expect(error.headers?.get("retry-after")).toBe("7");
  });

  it("context_window_exceeded is a 400 saying the prompt is too long", async () => {
    const error = await failure({ kind: "fault", fault: "context_window_exceeded" });
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/prompt is too long: \d+ tokens > 200000 maximum/);
  });

  it("error_mid_stream: text arrives, then the SDK throws an APIError with no status", async () => {
    server.enqueue({ kind: "fault", fault: "error_mid_stream", text: "Partial answer" });
    const stream = await client.messages.create(REQUEST);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") seen.push(event.delta.text);
      }
    })().catch((e: unknown) => e);
    expect(seen.join("")).toBe("Partial answer");
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ status: undefined, type: "overloaded_error" });
  });

  it("drop_connection: the SDK throws a bare TypeError: terminated", async () => {
    const error = await failure({ kind: "fault", fault: "drop_connection" });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });

  it("truncated: the stream ends silently with no message_delta or message_stop", async () => {
    const events = await collect({ kind: "fault", fault: "truncated", text: "half an ans" });
    const types = events.map((e) => e.type);
    expect(types).toContain("content_block_delta");
    expect(types).not.toContain("message_stop");
    expect(types).not.toContain("content_block_stop");
  });

  it("empty: a complete message with no content blocks", async () => {
    const events = await collect({ kind: "fault", fault: "empty" });
    expect(events.map((e) => e.type)).toEqual(["message_start", "message_delta", "message_stop"]);
  });

  it("stall: the SDK's timeout does not fire; aborting ends the iterator silently", async () => {
    const stalling = new Anthropic({ baseURL: server.anthropicBaseUrl, apiKey: "k", maxRetries: 0, timeout: 200 });
    server.enqueue({ kind: "fault", fault: "stall", text: "I am thinking" });
    const abort = new AbortController();
    const stream = await stalling.messages.create(REQUEST, { signal: abort.signal });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.type).toBe("message_start");
    let text = "";
    while (text !== "I am thinking") {
      const { value } = await iterator.next();
      if (value?.type === "content_block_delta" && value.delta.type === "text_delta") text += value.delta.text;
    }
    const pending = iterator.next();
    const outcome = await Promise.race([pending.then(() => "settled", () => "rejected"), sleep(1_000).then(() => "still waiting")]);
    expect(outcome).toBe("still waiting");
    abort.abort();
    await expect(pending).resolves.toMatchObject({ done: true });
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
