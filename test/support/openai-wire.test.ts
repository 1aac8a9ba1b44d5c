/**
 * The scripted server's OpenAI chat.completions wire, checked by the real openai client: what it
 * parses from each scripted answer, and what it throws (or how its stream ends) for each fault.
 */
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
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

const REQUEST = {
  model: "gpt-test",
  messages: [{ role: "user" as const, content: "Read the file please" }],
  stream: true as const,
  stream_options: { include_usage: true },
};

async function collect(turn: ScriptTurn, request: OpenAI.ChatCompletionCreateParamsStreaming = REQUEST): Promise<ChatCompletionChunk[]> {
  server.enqueue(turn);
  const stream = await client.chat.completions.create(request);
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(turn: ScriptTurn): Promise<unknown> {
  try {
    await collect(turn);
  } catch (error) {
    return error;
  }
  throw new Error("expected the SDK to throw");
}

/** The text of one delta field across the stream. */
function joined(chunks: ChatCompletionChunk[], field: "content" | "reasoning_content"): string {
  return chunks.map((c) => (c.choices[0]?.delta as Record<string, unknown> | undefined)?.[field] ?? "").join("");
}

describe("answers", () => {
  it("streams text in chunkSize pieces; the first delta carries the role; a usage chunk comes last", async () => {
    const chunks = await collect({ text: "The quick brown fox jumps", chunkSize: 10 });
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.slice(1, 4).map((c) => c.choices[0]?.delta.content)).toEqual(["The quick ", "brown fox ", "jumps"]);
    expect(chunks[4]?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks[5]?.choices).toEqual([]);
    expect(chunks).toHaveLength(6);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: chunks[0]?.id, object: "chat.completion.chunk", model: "gpt-test" });
    }
    expect(chunks[0]?.id).toMatch(/^chatcmpl-/);
  });

  it("leaves out the usage chunk when include_usage is not asked for", async () => {
    const { stream_options: _omitted, ...plain } = REQUEST;
    const chunks = await collect({ text: "hi" }, plain);
    expect(chunks.every((c) => c.usage === undefined && c.choices.length === 1)).toBe(true);
  });

  it("streams thinking as reasoning_content before the text", async () => {
    const chunks = await collect({ thinking: { text: "Let me consider.", signature: "ignored" }, text: "Done." });
    expect(joined(chunks, "reasoning_content")).toBe("Let me consider.");
    expect(joined(chunks, "content")).toBe("Done.");
    const firstText = chunks.findIndex((c) => c.choices[0]?.delta.content === "Done.");
    const lastReasoning = chunks.findLastIndex((c) => "reasoning_content" in (c.choices[0]?.delta ?? {}));
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it("sends tool calls as fragments by index that the SDK merges", async () => {
    server.enqueue({
      text: "Reading both.",
      toolCalls: [
        { name: "read_file", input: { path: "a.ts" } },
        { id: "call_fixed", name: "read_file", input: { path: "b.ts" } },
      ],
      chunkSize: 3,
    });
    const { stream: _s, ...request } = REQUEST;
    const completion = await client.chat.completions.stream(request).finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(message?.content).toBe("Reading both.");
    expect(message?.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_/), type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
      { id: "call_fixed", type: "function", function: { name: "read_file", arguments: '{"path":"b.ts"}' } },
    ]);
  });

  it("later tool call fragments carry only the index and an arguments piece", async () => {
    const chunks = await collect({ toolCalls: [{ name: "w", input: { text: "0123456789" } }], chunkSize: 6 });
    const fragments = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0]).toMatchObject({ index: 0, type: "function", function: { name: "w", arguments: "" } });
    for (const fragment of fragments.slice(1)) expect(Object.keys(fragment).sort()).toEqual(["function", "index"]);
    expect(fragments.map((f) => f.function?.arguments).join("")).toBe('{"text":"0123456789"}');
  });

  it("reports usage with cached tokens in the final chunk; prompt_tokens includes the cache", async () => {
    const chunks = await collect({ text: "ok", usage: { inputTokens: 100, outputTokens: 7, cacheReadTokens: 900 } });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 1000, completion_tokens: 7, total_tokens: 1007, prompt_tokens_details: { cached_tokens: 900 } },
    });
  });

  it("maps stop reasons to finish_reason", async () => {
    const chunks = await collect({ text: "cut", stopReason: "max_tokens" });
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(["length"]);
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

  it("rate_limit sends the scripted retry-after header", async () => {
    const error = (await failure({ kind: "fault", fault: "rate_limit", retryAfter: 3 })) as InstanceType<typeof OpenAI.APIError>;
    expect(error.headers?.get("retry-after")).toBe("3");
  });

  it("context_window_exceeded (OpenAI flavor) is a 400 context_length_exceeded", async () => {
    const error = await failure({ kind: "fault", fault: "context_window_exceeded" });
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ code: "context_length_exceeded", param: "messages", type: "invalid_request_error" });
    expect((error as Error).message).toMatch(/^400 This model's maximum context length is 128000 tokens\. However, your messages resulted in \d+ tokens/);
  });

  it("context_window_exceeded (OpenRouter flavor) is a 400 with a numeric code and metadata", async () => {
    const error = (await failure({ kind: "fault", fault: "context_window_exceeded", flavor: "openrouter" })) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.code).toBe(400);
    expect(error.error).toMatchObject({ metadata: { provider_name: null } });
    expect(error.message).toMatch(/This endpoint's maximum context length is 128000 tokens\. However, you requested about \d+ tokens/);
  });

  it("error_mid_stream: text arrives, then the SDK throws an APIError with no status", async () => {
    server.enqueue({ kind: "fault", fault: "error_mid_stream", text: "Partial answer" });
    const stream = await client.chat.completions.create(REQUEST);
    let text = "";
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(text).toBe("Partial answer");
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: undefined, type: "server_error" });
  });

  it("drop_connection: the SDK throws a bare TypeError: terminated", async () => {
    const error = await failure({ kind: "fault", fault: "drop_connection" });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });

  it("truncated: the stream ends silently with no finish_reason, usage or [DONE]", async () => {
    const chunks = await collect({ kind: "fault", fault: "truncated", text: "half an answer" });
    expect(joined(chunks, "content")).toBe("half an answer");
    expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(false);
    expect(chunks.some((c) => c.choices.length === 0)).toBe(false);
  });

  it("empty: a finished stream with no text at all", async () => {
    const chunks = await collect({ kind: "fault", fault: "empty" });
    expect(joined(chunks, "content")).toBe("");
    expect(chunks.map((c) => c.choices[0]?.finish_reason ?? null)).toEqual([null, "stop", null]);
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(0);
  });

  it("stall: the SDK's timeout does not fire; aborting ends the iterator silently", async () => {
    const stalling = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: "k", maxRetries: 0, timeout: 200 });
    server.enqueue({ kind: "fault", fault: "stall", text: "thinking" });
    const abort = new AbortController();
    const stream = await stalling.chat.completions.create(REQUEST, { signal: abort.signal });
    const iterator = stream[Symbol.asyncIterator]();
    let text = "";
    while (text !== "thinking") {
      const { value } = await iterator.next();
      text += value?.choices[0]?.delta.content ?? "";
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
