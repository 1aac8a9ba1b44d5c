/**
 * The OpenAI chat.completions streaming protocol (POST /v1/chat/completions, `data:` lines
 * ending with `data: [DONE]`), as OpenAI and compatible providers send it and the openai SDK
 * parses it. Thinking streams as DeepSeek-style `reasoning_content`; redacted thinking and
 * signatures have no equivalent on this wire and are left out.
 */
import type { ServerResponse } from "node:http";
import type { AnswerTurn, FaultTurn, ScriptTurn } from "./script.js";
import type { HttpFault, StreamFault, Wire, WireRequest } from "./wire.js";
import { isStreamFault } from "./wire.js";
import {
  DEFAULT_FAULT_TEXT,
  StreamSink,
  answerChars,
  estimateTokens,
  randomId,
  resolveUsage,
  sendJson,
  splitIntoChunks,
  type ResolvedUsage,
} from "./wire-stream.js";

const CONTEXT_WINDOW = 128_000;

interface OpenAIErrorSpec {
  status: number;
  type: string;
  message: string;
  param: string | null;
  code: string | null;
}

const HTTP_FAULTS: Record<Exclude<HttpFault, "context_window_exceeded">, OpenAIErrorSpec> = {
  rate_limit: {
    status: 429,
    type: "requests",
    message: "Rate limit reached for requests on this model. Please try again later.",
    param: null,
    code: "rate_limit_exceeded",
  },
  server_error: { status: 500, type: "server_error", message: "The server had an error processing your request.", param: null, code: null },
  overloaded: { status: 503, type: "server_error", message: "The server is overloaded, please try again later.", param: null, code: null },
  auth: { status: 401, type: "invalid_request_error", message: "Incorrect API key provided.", param: null, code: "invalid_api_key" },
  bad_request: {
    status: 400,
    type: "invalid_request_error",
    message: "Invalid 'messages': empty array. Expected an array with minimum length 1.",
    param: "messages",
    code: null,
  },
};

/** What the request's conversation is called: chat.completions' `messages`, the Responses API's `input`. */
export type ConversationParam = "messages" | "input";

const STOP_REASONS: Record<string, string> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
};

/** Writes chat.completion.chunk objects sharing one id, as the API does. */
class ChunkWriter {
  private readonly id = randomId("chatcmpl-", 29);
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(
    readonly sink: StreamSink,
    private readonly request: WireRequest,
  ) {}

  /** When include_usage is set, every chunk carries `usage: null` and a last chunk the totals. */
  get includeUsage(): boolean {
    const options = this.request.body.stream_options;
    return typeof options === "object" && options !== null && (options as Record<string, unknown>).include_usage === true;
  }

  private frame(choices: unknown[], usage?: unknown): unknown {
    const model = typeof this.request.body.model === "string" ? this.request.body.model : "scripted-model";
    const chunk: Record<string, unknown> = { id: this.id, object: "chat.completion.chunk", created: this.created, model, choices };
    if (usage !== undefined || this.includeUsage) chunk.usage = usage ?? null;
    return chunk;
  }

  data(payload: unknown): void {
    this.sink.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  delta(delta: Record<string, unknown>, finishReason: string | null = null): void {
    this.data(this.frame([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]));
  }

  /** The closing chunks: finish reason, usage totals when asked for, and [DONE]. */
  finish(finishReason: string, usage: ResolvedUsage): void {
    this.delta({}, finishReason);
    if (this.includeUsage) this.data(this.frame([], usageBody(usage)));
    this.sink.write("data: [DONE]\n\n");
  }
}

/** prompt_tokens counts cached tokens too (OpenAI's meaning), so it is input + cache read + cache write. */
function usageBody(usage: ResolvedUsage): unknown {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  const details: Record<string, number> = { cached_tokens: usage.cacheRead };
  // OpenRouter reports cache writes here; plain OpenAI has no such field.
  if (usage.cacheWrite > 0) details.cache_write_tokens = usage.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: details,
  };
}

async function streamPieces(
  writer: ChunkWriter,
  text: string,
  turn: Pick<AnswerTurn, "chunkSize" | "delayMs">,
  deltaOf: (piece: string) => Record<string, unknown>,
): Promise<void> {
  for (const piece of splitIntoChunks(text, turn.chunkSize)) {
    await writer.sink.pause(turn.delayMs ?? 0);
    if (!writer.sink.alive) return;
    writer.delta(deltaOf(piece));
  }
}

async function streamAnswer(res: ServerResponse, turn: AnswerTurn, request: WireRequest): Promise<void> {
  const sink = new StreamSink(res);
  const writer = new ChunkWriter(sink, request);
  sink.open("text/event-stream", { "x-request-id": randomId("req_") });
  writer.delta({ role: "assistant", content: "" });
  if (turn.thinking) {
    await streamPieces(writer, turn.thinking.text, turn, (reasoning_content) => ({ reasoning_content }));
  }
  if (turn.text) await streamPieces(writer, turn.text, turn, (content) => ({ content }));
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const id = call.id ?? randomId("call_");
    writer.delta({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] });
    await streamPieces(writer, (call.argumentsText ?? JSON.stringify(call.input)), turn, (args) => ({
      tool_calls: [{ index, function: { arguments: args } }],
    }));
  }
  const stopReason = turn.stopReason ?? (turn.toolCalls?.length ? "tool_use" : "end_turn");
  writer.finish(STOP_REASONS[stopReason] ?? stopReason, resolveUsage(turn.usage, request.body, answerChars(turn)));
  sink.end();
}

async function streamFault(res: ServerResponse, turn: FaultTurn & { fault: StreamFault }, request: WireRequest): Promise<void> {
  const sink = new StreamSink(res);
  const writer = new ChunkWriter(sink, request);
  sink.open("text/event-stream", { "x-request-id": randomId("req_") });
  writer.delta({ role: "assistant", content: "" });
  if (turn.fault === "empty") {
    writer.finish("stop", { ...resolveUsage(undefined, request.body, 0), output: 0 });
    sink.end();
    return;
  }
  await streamPieces(writer, turn.text ?? DEFAULT_FAULT_TEXT, {}, (content) => ({ content }));
  switch (turn.fault) {
    case "error_mid_stream":
      // OpenAI-compatible providers report a failure after the headers as a data line with `error`.
      writer.data({ error: { message: "The server had an error while streaming the response.", type: "server_error", param: null, code: null } });
      sink.end();
      return;
    case "drop_connection":
      sink.destroy();
      return;
    case "truncated":
      sink.end();
      return;
    case "stall":
      return;
  }
}

function contextOverflowBody(turn: FaultTurn, request: WireRequest): unknown {
  const requested = CONTEXT_WINDOW + estimateTokens(JSON.stringify(request.body).length);
  if (turn.flavor === "openrouter") {
    const output = 8192;
    return {
      error: {
        message:
          `This endpoint's maximum context length is ${CONTEXT_WINDOW} tokens. However, you requested about ${requested} tokens ` +
          `(${requested - output} of text input, ${output} in the output). Please reduce the length of either one, ` +
          `or use the "middle-out" transform to compress your prompt automatically.`,
        code: 400,
        metadata: { provider_name: null },
      },
      user_id: randomId("user_"),
    };
  }
  return {
    error: {
      message:
        `This model's maximum context length is ${CONTEXT_WINDOW} tokens. However, your messages resulted in ${requested} tokens. ` +
        "Please reduce the length of the messages.",
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    },
  };
}

/** Answers a fault with OpenAI's HTTP status and error body; the Responses wire shares it. */
export function sendOpenAiHttpFault(
  res: ServerResponse,
  turn: FaultTurn & { fault: HttpFault },
  request: WireRequest,
  conversation: ConversationParam = "messages",
): void {
  const headers: Record<string, string> = { "x-request-id": randomId("req_") };
  if (turn.fault === "context_window_exceeded") {
    sendJson(res, 400, contextOverflowBody(turn, request), headers);
    return;
  }
  const { status, ...error } = HTTP_FAULTS[turn.fault];
  if (turn.fault === "rate_limit" && turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
  if (error.param === "messages") {
    error.param = conversation;
    error.message = error.message.replace("'messages'", `'${conversation}'`);
  }
  sendJson(res, status, { error }, headers);
}

export const openaiWire: Wire = {
  protocol: "openai",
  matches: (path) => path === "/v1/chat/completions",
  async respond(res: ServerResponse, turn: ScriptTurn, request: WireRequest): Promise<void> {
    if (turn.kind !== "fault") return streamAnswer(res, turn, request);
    if (isStreamFault(turn.fault)) return streamFault(res, { ...turn, fault: turn.fault }, request);
    return sendOpenAiHttpFault(res, { ...turn, fault: turn.fault }, request);
  },
  sendError(res: ServerResponse, status: number, message: string): void {
    const type = status >= 500 ? "server_error" : "invalid_request_error";
    sendJson(res, status, { error: { message, type, param: null, code: null } }, { "x-request-id": randomId("req_") });
  },
};
