/**
 * The Anthropic Messages streaming protocol (POST /v1/messages, server-sent events with an
 * `event:` line each), as the real API sends it and @anthropic-ai/sdk parses it. The events of a
 * turn are built once (writeAnswerEvents, writeFaultEvents) and framed by the sink they go to:
 * SSE here, AWS event-stream frames on the Bedrock wire.
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

/** One streaming event of the Messages API; its `type` is also its SSE event name. */
export type AnthropicEvent = { readonly type: string } & Record<string, unknown>;

/** Where a turn's events go, framed as its wire frames them. */
export interface AnthropicEventSink {
  /** False once the client has gone. */
  readonly alive: boolean;
  send(event: AnthropicEvent): void;
  pause(ms: number): Promise<void>;
}

/** One SSE event as the API frames it: an `event:` line, a `data:` line, a blank line. */
function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The events as server-sent events on `sink`. */
function sseEvents(sink: StreamSink): AnthropicEventSink {
  return {
    get alive() {
      return sink.alive;
    },
    send: (event) => sink.write(sse(event.type, event)),
    pause: (ms) => sink.pause(ms),
  };
}

function errorBody(type: string, message: string, requestId: string): unknown {
  return { type: "error", error: { type, message }, request_id: requestId };
}

/** Writes content blocks one after another, numbering them as the API does. */
class BlockWriter {
  private index = 0;

  constructor(
    private readonly sink: AnthropicEventSink,
    private readonly chunkSize: number | undefined,
    private readonly delayMs: number,
  ) {}

  /** Streams one block; `deltaOf` turns a piece of `body` into that block's delta. */
  async block(start: unknown, body: string, deltaOf: (piece: string) => unknown, extra: unknown[] = []): Promise<void> {
    const index = this.index++;
    this.sink.send({ type: "content_block_start", index, content_block: start });
    for (const piece of splitIntoChunks(body, this.chunkSize)) {
      await this.sink.pause(this.delayMs);
      if (!this.sink.alive) return;
      this.sink.send({ type: "content_block_delta", index, delta: deltaOf(piece) });
    }
    for (const delta of extra) {
      this.sink.send({ type: "content_block_delta", index, delta });
    }
    this.sink.send({ type: "content_block_stop", index });
  }

  /** Streams a text block but leaves it open, for the faults that break mid-block. */
  async openText(text: string): Promise<void> {
    const index = this.index++;
    this.sink.send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of splitIntoChunks(text, this.chunkSize)) {
      await this.sink.pause(this.delayMs);
      this.sink.send({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    }
  }
}

function messageStart(sink: AnthropicEventSink, model: string, usage: ResolvedUsage): void {
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
  sink.send({ type: "message_start", message });
  sink.send({ type: "ping" });
}

function messageEnd(sink: AnthropicEventSink, stopReason: string, usage: ResolvedUsage): void {
  sink.send({
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: {
      input_tokens: usage.input,
      cache_creation_input_tokens: usage.cacheWrite,
      cache_read_input_tokens: usage.cacheRead,
      output_tokens: usage.output,
    },
  });
  sink.send({ type: "message_stop" });
}

function modelOf(request: WireRequest): string {
  return typeof request.body.model === "string" ? request.body.model : "scripted-model";
}

/** Every event of an answer, message_start to message_stop. */
export async function writeAnswerEvents(events: AnthropicEventSink, turn: AnswerTurn, request: WireRequest): Promise<void> {
  const usage = resolveUsage(turn.usage, request.body, answerChars(turn));
  messageStart(events, modelOf(request), usage);
  const blocks = new BlockWriter(events, turn.chunkSize, turn.delayMs ?? 0);
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
  messageEnd(events, stopReason, usage);
}

/**
 * The events a stream fault starts with: the whole of an empty answer; for the others
 * message_start and the fault's text in a block left open. How the stream then breaks is the wire's.
 */
export async function writeFaultEvents(events: AnthropicEventSink, turn: FaultTurn & { fault: StreamFault }, request: WireRequest): Promise<void> {
  const usage = resolveUsage(undefined, request.body, 0);
  messageStart(events, modelOf(request), usage);
  if (turn.fault === "empty") {
    messageEnd(events, "end_turn", { ...usage, output: 0 });
    return;
  }
  const text = turn.text ?? DEFAULT_FAULT_TEXT;
  if (text !== "") await new BlockWriter(events, undefined, 0).openText(text);
}

async function streamAnswer(res: ServerResponse, turn: AnswerTurn, request: WireRequest): Promise<void> {
  const sink = new StreamSink(res);
  sink.open("text/event-stream", { "request-id": randomId("req_01") });
  await writeAnswerEvents(sseEvents(sink), turn, request);
  sink.end();
}

async function streamFault(res: ServerResponse, turn: FaultTurn & { fault: StreamFault }, request: WireRequest): Promise<void> {
  const sink = new StreamSink(res);
  const requestId = randomId("req_01");
  sink.open("text/event-stream", { "request-id": requestId });
  await writeFaultEvents(sseEvents(sink), turn, request);
  switch (turn.fault) {
    case "empty":
      sink.end();
      return;
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
  matches: (path) => path === "/v1/messages",
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
