/**
 * The scripted server's OpenAI Responses wire, checked by the real openai client: the events it
 * parses from each scripted answer, and what it throws (or how its stream ends) for each fault.
 */
import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScriptTurn } from "./script.js";
import { startScriptedModelServer, type ScriptedModelServer } from "./scripted-model-server.js";

let server: ScriptedModelServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startScriptedModelServer();
  client = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test-key", maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

const REQUEST: OpenAI.Responses.ResponseCreateParamsStreaming = {
  model: "gpt-test",
  instructions: "be brief",
  input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Read the file please" }] }],
  stream: true,
  store: false,
  reasoning: { summary: "auto" },
};

async function collect(turn: ScriptTurn, request = REQUEST): Promise<ResponseStreamEvent[]> {
  server.enqueue(turn);
  const stream = await client.responses.create(request);
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function failure(turn: ScriptTurn): Promise<unknown> {
  try {
    await collect(turn);
  } catch (error) {
    return error;
  }
  throw new Error("expected the SDK to throw");
}

function ofType<T extends ResponseStreamEvent["type"]>(events: ResponseStreamEvent[], type: T) {
  return events.filter((e): e is Extract<ResponseStreamEvent, { type: T }> => e.type === type);
}

function textOf(events: ResponseStreamEvent[]): string {
  return ofType(events, "response.output_text.delta")
    .map((e) => e.delta)
    .join("");
}

describe("answers", () => {
  it("streams text in chunkSize pieces inside one message item, numbered in order, ending with response.completed", async () => {
    const events = await collect({ text: "The quick brown fox jumps", chunkSize: 10 });
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(ofType(events, "response.output_text.delta").map((e) => e.delta)).toEqual(["The quick ", "brown fox ", "jumps"]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const [created] = ofType(events, "response.created");
    const [completed] = ofType(events, "response.completed");
    expect(created?.response).toMatchObject({
      object: "response",
      status: "in_progress",
      model: "gpt-test",
      instructions: "be brief",
      store: false,
    });
    expect(completed?.response.id).toBe(created?.response.id);
    expect(completed?.response.id).toMatch(/^resp_/);
    expect(completed?.response.status).toBe("completed");
    expect(completed?.response.output).toEqual([
      expect.objectContaining({
        type: "message",
        role: "assistant",
        status: "completed",
        content: [expect.objectContaining({ type: "output_text", text: "The quick brown fox jumps" })],
      }),
    ]);
  });

  it("streams thinking as reasoning summary parts, one per paragraph, before the text", async () => {
    const events = await collect({ thinking: { text: "**Plan**\n\nRead it first.", signature: "ignored" }, text: "Done." });
    const deltas = ofType(events, "response.reasoning_summary_text.delta");
    expect(deltas.map((e) => [e.summary_index, e.delta])).toEqual([
      [0, "**Plan**"],
      [1, "Read it first."],
    ]);
    expect(ofType(events, "response.reasoning_summary_part.added").map((e) => e.summary_index)).toEqual([0, 1]);
    const reasoningItem = ofType(events, "response.output_item.done")[0]?.item;
    expect(reasoningItem).toMatchObject({ type: "reasoning", summary: [{ text: "**Plan**" }, { text: "Read it first." }] });
    const lastReasoning = events.findLastIndex((e) => e.type === "response.reasoning_summary_text.delta");
    expect(lastReasoning).toBeLessThan(events.findIndex((e) => e.type === "response.output_text.delta"));
    expect(textOf(events)).toBe("Done.");
  });

  it("sends no summary text when the request does not ask for a reasoning summary", async () => {
    const { reasoning: _omitted, ...plain } = REQUEST;
    const events = await collect({ thinking: { text: "hidden" }, text: "Done." }, plain);
    expect(ofType(events, "response.reasoning_summary_text.delta")).toEqual([]);
    expect(ofType(events, "response.output_item.added")[0]?.item).toMatchObject({ type: "reasoning", summary: [] });
    expect(textOf(events)).toBe("Done.");
  });

  it("sends tool calls as function_call items whose argument deltas rebuild the JSON", async () => {
    const events = await collect({
      text: "Reading both.",
      toolCalls: [
        { name: "read_file", input: { path: "a.ts" } },
        { id: "call_fixed", name: "read_file", input: { path: "b.ts" } },
      ],
      chunkSize: 3,
    });
    const added = ofType(events, "response.output_item.added").filter((e) => e.item.type === "function_call");
    expect(added.map((e) => [e.output_index, e.item])).toEqual([
      [1, expect.objectContaining({ type: "function_call", call_id: expect.stringMatching(/^call_/), name: "read_file", arguments: "" })],
      [2, expect.objectContaining({ type: "function_call", call_id: "call_fixed", name: "read_file", arguments: "" })],
    ]);
    const argsOf = (index: number) =>
      ofType(events, "response.function_call_arguments.delta")
        .filter((e) => e.output_index === index)
        .map((e) => e.delta);
    expect(argsOf(1).length).toBeGreaterThan(1);
    expect(argsOf(1).join("")).toBe('{"path":"a.ts"}');
    expect(argsOf(2).join("")).toBe('{"path":"b.ts"}');
    const output = ofType(events, "response.completed")[0]?.response.output ?? [];
    expect(output.map((item) => item.type)).toEqual(["message", "function_call", "function_call"]);
    expect(output[2]).toMatchObject({ call_id: "call_fixed", arguments: '{"path":"b.ts"}', status: "completed" });
  });

  it("the SDK's own stream helper assembles the final response from these events", async () => {
    server.enqueue({ text: "Hello.", toolCalls: [{ id: "call_1", name: "list_files", input: { path: "." } }] });
    const { stream: _s, ...request } = REQUEST;
    const response = await client.responses.stream(request).finalResponse();
    expect(response.output_text).toBe("Hello.");
    expect(response.output.at(-1)).toMatchObject({ type: "function_call", call_id: "call_1", arguments: '{"path":"."}' });
  });

  it("reports usage with cached tokens in response.completed; input_tokens includes the cache", async () => {
    const events = await collect({ text: "ok", usage: { inputTokens: 100, outputTokens: 7, cacheReadTokens: 900 } });
    expect(ofType(events, "response.completed")[0]?.response.usage).toMatchObject({
      input_tokens: 1000,
      input_tokens_details: { cached_tokens: 900 },
      output_tokens: 7,
      total_tokens: 1007,
    });
  });

  it("ends a max_tokens answer with response.incomplete (max_output_tokens) and its usage", async () => {
    const events = await collect({ text: "cut", stopReason: "max_tokens", usage: { inputTokens: 5, outputTokens: 3 } });
    expect(events.at(-1)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: { input_tokens: 5, output_tokens: 3 } },
    });
    expect(ofType(events, "response.completed")).toEqual([]);
  });
});

describe("faults", () => {
  it.each([
    ["rate_limit", 429, "rate_limit_exceeded", OpenAI.RateLimitError],
    ["server_error", 500, null, OpenAI.InternalServerError],
    ["overloaded", 503, null, OpenAI.InternalServerError],
    ["auth", 401, "invalid_api_key", OpenAI.AuthenticationError],
    ["bad_request", 400, null, OpenAI.BadRequestError],
  ] as const)("%s: the SDK throws %i (code %s)", async (fault, status, code, errorClass) => {
    const error = await failure({ kind: "fault", fault });
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, code });
  });

  it("bad_request names the Responses API's `input`", async () => {
    const error = await failure({ kind: "fault", fault: "bad_request" });
    expect(error).toMatchObject({ param: "input", message: expect.stringContaining("'input'") });
  });

  it("rate_limit sends the scripted retry-after header", async () => {
    const error = (await failure({ kind: "fault", fault: "rate_limit", retryAfter: 3 })) as InstanceType<typeof OpenAI.APIError>;
    expect(error.headers?.get("retry-after")).toBe("3");
  });

  it("context_window_exceeded: the SDK yields a response.failed event with code context_length_exceeded, and throws nothing", async () => {
    const events = await collect({ kind: "fault", fault: "context_window_exceeded" });
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.failed"]);
    expect(events.at(-1)).toMatchObject({
      response: {
        status: "failed",
        error: { code: "context_length_exceeded", message: expect.stringMatching(/exceeds the context window/) },
      },
    });
  });

  it("context_window_exceeded (OpenRouter flavor) is a 400 before any stream", async () => {
    const error = await failure({ kind: "fault", fault: "context_window_exceeded", flavor: "openrouter" });
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(/maximum context length is 128000 tokens/);
  });

  it("error_mid_stream: text arrives, then a response.failed event with a server_error; the SDK throws nothing", async () => {
    const events = await collect({ kind: "fault", fault: "error_mid_stream", text: "Partial answer" });
    expect(textOf(events)).toBe("Partial answer");
    expect(events.at(-1)).toMatchObject({
      type: "response.failed",
      response: {
        status: "failed",
        error: { code: "server_error", message: expect.stringMatching(/^An error occurred while processing your request/) },
      },
    });
  });

  it("drop_connection: the SDK throws a bare TypeError: terminated", async () => {
    const error = await failure({ kind: "fault", fault: "drop_connection" });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });

  it("truncated: the stream ends silently with no response.completed", async () => {
    const events = await collect({ kind: "fault", fault: "truncated", text: "half an answer" });
    expect(textOf(events)).toBe("half an answer");
    const terminal = ["response.completed", "response.incomplete", "response.failed", "error"];
    expect(events.filter((e) => terminal.includes(e.type))).toEqual([]);
  });

  it("empty: a completed response with no output and no output tokens", async () => {
    const events = await collect({ kind: "fault", fault: "empty" });
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.completed"]);
    expect(ofType(events, "response.completed")[0]?.response).toMatchObject({ output: [], usage: { output_tokens: 0 } });
  });

  it("stall: the SDK's timeout does not fire; aborting ends the iterator silently", async () => {
    const stalling = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: "k", maxRetries: 0, timeout: 200 });
    server.enqueue({ kind: "fault", fault: "stall", text: "thinking" });
    const abort = new AbortController();
    const stream = await stalling.responses.create(REQUEST, { signal: abort.signal });
    const iterator = stream[Symbol.asyncIterator]();
    let text = "";
    while (text !== "thinking") {
      const { value } = await iterator.next();
      if (value?.type === "response.output_text.delta") text += value.delta;
    }
    const pending = iterator.next();
    const outcome = await Promise.race([pending.then(() => "settled", () => "rejected"), sleep(1_000).then(() => "still waiting")]);
    expect(outcome).toBe("still waiting");
    abort.abort();
    await expect(pending).resolves.toMatchObject({ done: true });
  });

  it("records the request under the openai-responses protocol", async () => {
    await collect({ text: "ok" });
    expect(server.requests[0]).toMatchObject({
      protocol: "openai-responses",
      path: "/v1/responses",
      body: { model: "gpt-test", store: false },
    });
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
