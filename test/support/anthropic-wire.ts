/**
 * The Anthropic Messages streaming protocol (POST /v1/messages, server-sent events with an
 * `event:` line each), as the real API sends it and @anthropic-ai/sdk parses it.
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

const CONTEXT_WINDOW = 200_000;

const HTTP_FAULTS: Record<HttpFault, { status: number; type: string; message: string }> = {
  rate_limit: {
    status: 429,
    type: "rate_limit_error",
    message: "This request would exceed your organization's rate limit. Please try again later.",
  },
  server_error: { status: 500, type: "api_error", message: "Internal server error" },
  overloaded: { status: 529, type: "overloaded_error", message: "Overloaded" },
  auth: { status: 401, type: "authentication_error", message: "invalid x-api-key" },
  bad_request: { status: 400, type: "invalid_request_error", message: "messages: at least one message is required" },
  // The message is replaced per request with the real "prompt is too long" wording.
  context_window_exceeded: { status: 400, type: "invalid_request_error", message: "" },
};

/** One SSE event as the API frames it: an `event:` line, a `data:` line, a blank line. */
function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function errorBody(type: string, message: string, requestId: string): unknown {
  return { type: "error", error: { type, message }, request_id: requestId };
}

/** Writes content blocks one after another, numbering them as the API does. */
class BlockWriter {
  private index = 0;

  constructor(
    private readonly sink: StreamSink,
    private readonly chunkSize: number | undefined,
    private readonly delayMs: number,
  ) {}

  /** Streams one block; `deltaOf` turns a piece of `body` into that block's delta. */
  async block(start: unknown, body: string, deltaOf: (piece: string) => unknown, extra: unknown[] = []): Promise<void> {
    const index = this.index++;
    this.sink.write(sse("content_block_start", { type: "content_block_start", index, content_block: start }));
    for (const piece of splitIntoChunks(body, this.chunkSize)) {
      await this.sink.pause(this.delayMs);
      if (!this.sink.alive) return;
      this.sink.write(sse("content_block_delta", { type: "content_block_delta", index, delta: deltaOf(piece) }));
    }
    for (const delta of extra) {
      this.sink.write(sse("content_block_delta", { type: "content_block_delta", index, delta }));
    }
    this.sink.write(sse("content_block_stop", { type: "content_block_stop", index }));
  }

  /** Streams a text block but leaves it open, for the faults that break mid-block. */
  async openText(text: string): Promise<void> {
    const index = this.index++;
    this.sink.write(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    for (const piece of splitIntoChunks(text, this.chunkSize)) {
      await this.sink.pause(this.delayMs);
      this.sink.write(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }));
    }
  }
}

function messageStart(sink: StreamSink, model: string, usage: ResolvedUsage): void {
  const message = {
    id: randomId("msg_01"),
    type: "message",
    role: "assistant",
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      cache_creation_input_tokens: usage.cacheWrite,
      cache_read_input_tokens: usage.cacheRead,
      // The real API reports a token or so here and the full count in message_delta.
      output_tokens: 1,
    },
  };
  sink.write(sse("message_start", { type: "message_start", message }));
  sink.write(sse("ping", { type: "ping" }));
}

function messageEnd(sink: StreamSink, stopReason: string, usage: ResolvedUsage): void {
  sink.write(
    sse("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
        output_tokens: usage.output,
      },
    }),
  );
  sink.write(sse("message_stop", { type: "message_stop" }));
}

function modelOf(request: WireRequest): string {
  return typeof request.body.model === "string" ? request.body.model : "scripted-model";
}

async function streamAnswer(res: ServerResponse, turn: AnswerTurn, request: WireRequest): Promise<void> {
  const sink = new StreamSink(res);
  const usage = resolveUsage(turn.usage, request.body, answerChars(turn));
  sink.open("text/event-stream", { "request-id": randomId("req_01") });
  messageStart(sink, modelOf(request), usage);
  const blocks = new BlockWriter(sink, turn.chunkSize, turn.delayMs ?? 0);
  if (turn.thinking) {
    const signature = turn.thinking.signature ?? randomId("Eq", 64);
    await blocks.block(
      { type: "thinking", thinking: "", signature: "" },
      turn.thinking.text,
      (thinking) => ({ type: "thinking_delta", thinking }),
      [{ type: "signature_delta", signature }],
    );
  }
  if (turn.redactedThinking !== undefined) {
    await blocks.block({ type: "redacted_thinking", data: turn.redactedThinking }, "", () => null);
  }
  if (turn.text !== undefined && turn.text !== "") {
    await blocks.block({ type: "text", text: "" }, turn.text, (text) => ({ type: "text_delta", text }));
  }
  for (const call of turn.toolCalls ?? []) {
    await blocks.block(
      { type: "tool_use", id: call.id ?? randomId("toolu_01"), name: call.name, input: {} },
      (call.argumentsText ?? JSON.stringify(call.input)),
      (partial_json) => ({ type: "input_json_delta", partial_json }),
    );
  }
  const stopReason = turn.stopReason ?? (turn.toolCalls?.length ? "tool_use" : "end_turn");
  messageEnd(sink, stopReason, usage);
  sink.end();
}

async function streamFault(res: ServerResponse, turn: FaultTurn & { fault: StreamFault }, request: WireRequest): Promise<void> {
  const sink = new StreamSink(res);
  const requestId = randomId("req_01");
  const usage = resolveUsage(undefined, request.body, 0);
  sink.open("text/event-stream", { "request-id": requestId });
  messageStart(sink, modelOf(request), usage);
  if (turn.fault === "empty") {
    messageEnd(sink, "end_turn", { ...usage, output: 0 });
    sink.end();
    return;
  }
  const text = turn.text ?? DEFAULT_FAULT_TEXT;
  if (text !== "") await new BlockWriter(sink, undefined, 0).openText(text);
  switch (turn.fault) {
    case "error_mid_stream":
      sink.write(sse("error", errorBody("overloaded_error", "Overloaded", requestId)));
      sink.end();
      return;
    case "drop_connection":
      sink.destroy();
      return;
    case "truncated":
      sink.end();
      return;
    case "stall":
      // Nothing more, ever: the socket stays open until the client gives up or the server closes.
      return;
  }
}

function sendHttpFault(res: ServerResponse, turn: FaultTurn & { fault: HttpFault }, request: WireRequest): void {
  const spec = HTTP_FAULTS[turn.fault];
  const requestId = randomId("req_01");
  let message = spec.message;
  if (turn.fault === "context_window_exceeded") {
    const promptTokens = CONTEXT_WINDOW + estimateTokens(JSON.stringify(request.body).length);
    message = `prompt is too long: ${promptTokens} tokens > ${CONTEXT_WINDOW} maximum`;
  }
  const headers: Record<string, string> = { "request-id": requestId };
  if (turn.fault === "rate_limit" && turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
  sendJson(res, spec.status, errorBody(spec.type, message, requestId), headers);
}

export const anthropicWire: Wire = {
  protocol: "anthropic",
  path: "/v1/messages",
  async respond(res: ServerResponse, turn: ScriptTurn, request: WireRequest): Promise<void> {
    if (turn.kind !== "fault") return streamAnswer(res, turn, request);
    if (isStreamFault(turn.fault)) return streamFault(res, { ...turn, fault: turn.fault }, request);
    return sendHttpFault(res, { ...turn, fault: turn.fault }, request);
  },
  sendError(res: ServerResponse, status: number, message: string): void {
    const requestId = randomId("req_01");
    const type = status >= 500 ? "api_error" : "invalid_request_error";
    sendJson(res, status, errorBody(type, message, requestId), { "request-id": requestId });
  },
};
