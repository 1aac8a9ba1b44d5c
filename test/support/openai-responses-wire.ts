/**
 * OpenAI's Responses API streaming protocol (POST /v1/responses) as OpenAI sends it and the
 * openai SDK parses it: `event: <type>` + `data: <json>` frames with a rising sequence_number,
 * every output item opened and closed (reasoning, message, function_call), ending with
 * `response.completed` (or `response.incomplete` when cut off) and no `[DONE]`.
 *
 * Thinking streams as a reasoning summary, one summary part per paragraph, and only when the
 * request asks for a summary (`reasoning.summary`), as OpenAI does; otherwise the reasoning item
 * comes with an empty summary. Signatures and redacted thinking have no equivalent and are left out.
 *
 * Failures after the stream started come as `response.failed` with `response.error`, which is
 * what OpenAI sends (a server error mid-answer, and a context overflow, which the Responses API
 * reports in the stream rather than as an HTTP 400). HTTP faults are answered as on the
 * chat.completions wire; the "openrouter" flavor of a context overflow is that 400 too.
 */
import type { ServerResponse } from "node:http";
import { openaiWire, sendOpenAiHttpFault } from "./openai-wire.js";
import type { AnswerTurn, FaultTurn, ScriptedToolCall, ScriptTurn } from "./script.js";
import type { StreamFault, Wire, WireRequest } from "./wire.js";
import { isStreamFault } from "./wire.js";
import {
  DEFAULT_FAULT_TEXT,
  StreamSink,
  answerChars,
  estimateTokens,
  randomId,
  sendJson,
  resolveUsage,
  splitIntoChunks,
  type ResolvedUsage,
} from "./wire-stream.js";

type Pacing = Pick<AnswerTurn, "chunkSize" | "delayMs">;
type Json = Record<string, unknown>;

/** Stop reasons that leave the response "incomplete", with OpenAI's reason for each. */
const INCOMPLETE_REASONS: Record<string, string> = { max_tokens: "max_output_tokens", content_filter: "content_filter" };

const CONTEXT_OVERFLOW = {
  code: "context_length_exceeded",
  message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
};

function serverError(requestId: string): { code: string; message: string } {
  return {
    code: "server_error",
    message:
      "An error occurred while processing your request. You can retry your request, or contact us through our help " +
      `center at help.openai.com if the error persists. Please include the request ID ${requestId} in your message.`,
  };
}

/** Writes the events of one response: numbers them, hands out output indexes, keeps finished items. */
class EventWriter {
  readonly requestId = randomId("req_");
  private sequence = 0;
  private outputs = 0;
  private readonly finished: Json[] = [];
  private readonly base: Json;

  constructor(
    readonly sink: StreamSink,
    readonly request: WireRequest,
  ) {
    const body = request.body;
    this.base = {
      id: randomId("resp_", 48),
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model: typeof body.model === "string" ? body.model : "scripted-model",
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: this.summaryRequested ? (body.reasoning as Json).summary : null },
      store: body.store ?? true,
      temperature: body.temperature ?? 1,
      text: { format: { type: "text" } },
      tool_choice: "auto",
      tools: body.tools ?? [],
      top_p: 1,
      truncation: "disabled",
      usage: null,
      metadata: {},
    };
  }

  get summaryRequested(): boolean {
    const reasoning = this.request.body.reasoning;
    return typeof reasoning === "object" && reasoning !== null && typeof (reasoning as Json).summary === "string";
  }

  open(): void {
    this.sink.open("text/event-stream", { "x-request-id": this.requestId });
    this.event("response.created", { response: this.snapshot("in_progress") });
    this.event("response.in_progress", { response: this.snapshot("in_progress") });
  }

  event(type: string, fields: Json): void {
    const payload = { type, ...fields, sequence_number: this.sequence++ };
    this.sink.write(`event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`);
  }

  /** Opens an output item and returns its index. */
  addItem(item: Json): number {
    const index = this.outputs++;
    this.event("response.output_item.added", { output_index: index, item });
    return index;
  }

  doneItem(index: number, item: Json): void {
    this.finished.push(item);
    this.event("response.output_item.done", { output_index: index, item });
  }

  snapshot(status: string, extra: Json = {}): Json {
    return { ...this.base, status, output: [...this.finished], ...extra };
  }
}

async function streamPieces(writer: EventWriter, text: string, pacing: Pacing, emit: (piece: string) => void): Promise<void> {
  for (const piece of splitIntoChunks(text, pacing.chunkSize)) {
    await writer.sink.pause(pacing.delayMs ?? 0);
    if (!writer.sink.alive) return;
    emit(piece);
  }
}

async function streamReasoning(writer: EventWriter, text: string, pacing: Pacing): Promise<void> {
  const id = randomId("rs_", 48);
  const index = writer.addItem({ id, type: "reasoning", summary: [] });
  const summary: Json[] = [];
  if (writer.summaryRequested) {
    for (const [summaryIndex, paragraph] of text.split("\n\n").entries()) {
      const at = { item_id: id, output_index: index, summary_index: summaryIndex };
      writer.event("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
      await streamPieces(writer, paragraph, pacing, (delta) => writer.event("response.reasoning_summary_text.delta", { ...at, delta }));
      writer.event("response.reasoning_summary_text.done", { ...at, text: paragraph });
      const part = { type: "summary_text", text: paragraph };
      writer.event("response.reasoning_summary_part.done", { ...at, part });
      summary.push(part);
    }
  }
  writer.doneItem(index, { id, type: "reasoning", summary });
}

/** Opens a message item and streams its text; returns how to close it (faults leave it open). */
async function streamMessageText(writer: EventWriter, text: string, pacing: Pacing): Promise<() => void> {
  const id = randomId("msg_", 48);
  const index = writer.addItem({ id, type: "message", status: "in_progress", content: [], role: "assistant" });
  const at = { item_id: id, output_index: index, content_index: 0 };
  writer.event("response.content_part.added", { ...at, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
  await streamPieces(writer, text, pacing, (delta) => writer.event("response.output_text.delta", { ...at, delta, logprobs: [] }));
  return () => {
    const part = { type: "output_text", annotations: [], logprobs: [], text };
    writer.event("response.output_text.done", { ...at, text, logprobs: [] });
    writer.event("response.content_part.done", { ...at, part });
    writer.doneItem(index, { id, type: "message", status: "completed", content: [part], role: "assistant" });
  };
}

async function streamFunctionCall(writer: EventWriter, call: ScriptedToolCall, pacing: Pacing): Promise<void> {
  const item = { id: randomId("fc_", 48), type: "function_call", call_id: call.id ?? randomId("call_"), name: call.name };
  const index = writer.addItem({ ...item, status: "in_progress", arguments: "" });
  const args = (call.argumentsText ?? JSON.stringify(call.input));
  const at = { item_id: item.id, output_index: index };
  await streamPieces(writer, args, pacing, (delta) => writer.event("response.function_call_arguments.delta", { ...at, delta }));
  writer.event("response.function_call_arguments.done", { ...at, name: call.name, arguments: args });
  writer.doneItem(index, { ...item, status: "completed", arguments: args });
}

/** input_tokens counts cached tokens too (OpenAI's meaning), as on chat.completions. */
function usageBody(usage: ResolvedUsage, reasoningChars: number): Json {
  const input = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: Math.min(usage.output, estimateTokens(reasoningChars)) },
    total_tokens: input + usage.output,
  };
}

async function streamAnswer(res: ServerResponse, turn: AnswerTurn, request: WireRequest): Promise<void> {
  const writer = new EventWriter(new StreamSink(res), request);
  writer.open();
  if (turn.thinking) await streamReasoning(writer, turn.thinking.text, turn);
  if (turn.text) (await streamMessageText(writer, turn.text, turn))();
  for (const call of turn.toolCalls ?? []) await streamFunctionCall(writer, call, turn);
  const usage = usageBody(resolveUsage(turn.usage, request.body, answerChars(turn)), turn.thinking?.text.length ?? 0);
  const reason = INCOMPLETE_REASONS[turn.stopReason ?? ""];
  if (reason) {
    writer.event("response.incomplete", { response: writer.snapshot("incomplete", { incomplete_details: { reason }, usage }) });
  } else {
    writer.event("response.completed", { response: writer.snapshot("completed", { usage }) });
  }
  writer.sink.end();
}

function fail(writer: EventWriter, error: { code: string; message: string }): void {
  writer.event("response.failed", { response: writer.snapshot("failed", { error }) });
  writer.sink.end();
}

async function streamFault(res: ServerResponse, turn: FaultTurn & { fault: StreamFault }, request: WireRequest): Promise<void> {
  const writer = new EventWriter(new StreamSink(res), request);
  writer.open();
  if (turn.fault === "empty") {
    const usage = usageBody({ ...resolveUsage(undefined, request.body, 0), output: 0 }, 0);
    writer.event("response.completed", { response: writer.snapshot("completed", { usage }) });
    writer.sink.end();
    return;
  }
  await streamMessageText(writer, turn.text ?? DEFAULT_FAULT_TEXT, {});
  switch (turn.fault) {
    case "error_mid_stream":
      return fail(writer, serverError(writer.requestId));
    case "drop_connection":
      return writer.sink.destroy();
    case "truncated":
      return writer.sink.end();
    case "stall":
      return;
  }
}

/** OpenAI's answer when an organisation that is not verified asks for reasoning summaries. */
const UNVERIFIED_ORG = {
  message:
    "Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.",
  type: "invalid_request_error",
  param: "reasoning.summary",
  code: "unsupported_value",
};

export const openaiResponsesWire: Wire = {
  protocol: "openai-responses",
  matches: (path) => path === "/v1/responses",
  async respond(res: ServerResponse, turn: ScriptTurn, request: WireRequest): Promise<void> {
    if (turn.kind !== "fault") return streamAnswer(res, turn, request);
    if (turn.fault === "context_window_exceeded" && turn.flavor !== "openrouter") {
      const writer = new EventWriter(new StreamSink(res), request);
      writer.open();
      return fail(writer, CONTEXT_OVERFLOW);
    }
    if (isStreamFault(turn.fault)) return streamFault(res, { ...turn, fault: turn.fault }, request);
    if (turn.fault === "bad_request" && turn.flavor === "unverified_org") return sendJson(res, 400, { error: UNVERIFIED_ORG });
    return sendOpenAiHttpFault(res, { ...turn, fault: turn.fault }, request, "input");
  },
  // Errors outside a script turn look the same on both OpenAI endpoints.
  sendError: (res, status, message) => openaiWire.sendError(res, status, message),
};
