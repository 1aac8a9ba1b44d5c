/**
 * Google Gemini's streaming protocol as the Gemini API and Vertex AI send it and @google/genai
 * parses it: POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse (Vertex:
 * /v1beta1/projects/{project}/locations/{location}/publishers/google/models/{model}:…), answered
 * with server-sent `data: {GenerateContentResponse}` events and no end event: the chunk with a
 * `finishReason` ends the answer. The body has no `stream` field; the path says it streams.
 *
 * What the chunks carry: `candidates[0].content.parts` (text; thoughts as text with
 * `thought: true`; function calls whole, one part each, never in fragments; the opaque
 * `thoughtSignature` on the first function call, else on an empty text part at the end, as
 * Google streams it), `finishReason` (STOP also after function calls, MAX_TOKENS, SAFETY …; a
 * stopReason in Gemini's own words passes through) and `usageMetadata` as running totals, where
 * promptTokenCount includes the cachedContentTokenCount and thoughts are counted apart from the
 * candidates.
 *
 * Errors are Google's `{error: {code, message, status, details}}`, with the real wordings: a 429
 * RESOURCE_EXHAUSTED with a RetryInfo delay, a 503 UNAVAILABLE when overloaded, a refused key as
 * the 400 INVALID_ARGUMENT with reason API_KEY_INVALID the Gemini API sends (Vertex answers a bad
 * token with a 401 UNAUTHENTICATED), a context overflow as a 400 naming both token counts, and an
 * error after the stream started as a `data:` event holding the same error object. Every error
 * carries a google.rpc.RequestInfo detail with a request id, so tests can tell requests apart.
 */
import type { ServerResponse } from "node:http";
import type { AnswerTurn, FaultTurn, ScriptTurn } from "./script.js";
import type { HttpFault, StreamFault, Wire, WireRequest } from "./wire.js";
import { isStreamFault } from "./wire.js";
import { DEFAULT_FAULT_TEXT, StreamSink, answerChars, estimateTokens, randomId, resolveUsage, sendJson, splitIntoChunks, type ResolvedUsage } from "./wire-stream.js";

/** The Gemini API's route, and Vertex AI's; a proxy may put a prefix before either. */
const GEMINI_API_PATH = /(?:^|\/)v1(?:beta)?\/models\/[^/:]+:streamGenerateContent$/;
const VERTEX_PATH = /(?:^|\/)v1(?:beta1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/[^/:]+:streamGenerateContent$/;

const CONTEXT_WINDOW = 1_048_576;

type Json = Record<string, unknown>;

/** Gemini's finish reasons for the script's stop reasons; Gemini's own names pass through. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  end_turn: "STOP",
  stop_sequence: "STOP",
  tool_use: "STOP",
  max_tokens: "MAX_TOKENS",
  refusal: "SAFETY",
  content_filter: "SAFETY",
};

interface GoogleError {
  code: number;
  status: string;
  message: string;
  details?: Json[];
}

const TYPE = "type.googleapis.com/google.rpc.";

const HTTP_FAULTS: Readonly<Record<Exclude<HttpFault, "context_window_exceeded" | "rate_limit" | "auth">, GoogleError>> = {
  server_error: {
    code: 500,
    status: "INTERNAL",
    message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  },
  overloaded: { code: 503, status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  bad_request: { code: 400, status: "INVALID_ARGUMENT", message: "* GenerateContentRequest.contents: contents is not specified\n" },
};

/** What the Gemini API says of a key it does not know: a 400, not a 401. */
const API_KEY_INVALID: GoogleError = {
  code: 400,
  status: "INVALID_ARGUMENT",
  message: "API key not valid. Please pass a valid API key.",
  details: [
    { "@type": `${TYPE}ErrorInfo`, reason: "API_KEY_INVALID", domain: "googleapis.com", metadata: { service: "generativelanguage.googleapis.com" } },
    { "@type": `${TYPE}LocalizedMessage`, locale: "en-US", message: "API key not valid. Please pass a valid API key." },
  ],
};

/** What Vertex AI says of an OAuth token it does not accept. */
const VERTEX_UNAUTHENTICATED: GoogleError = {
  code: 401,
  status: "UNAUTHENTICATED",
  message:
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. " +
    "See https://developers.google.com/identity/sign-in/web/devconsole-project.",
  details: [{ "@type": `${TYPE}ErrorInfo`, reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED", domain: "googleapis.com", metadata: { service: "aiplatform.googleapis.com" } }],
};

function rateLimited(retryAfter: number | undefined): GoogleError {
  return {
    code: 429,
    status: "RESOURCE_EXHAUSTED",
    message:
      "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: " +
      "https://ai.google.dev/gemini-api/docs/rate-limits.",
    details: [
      {
        "@type": `${TYPE}QuotaFailure`,
        violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count", quotaId: "GenerateContentPaidTierInputTokensPerModelPerMinute" }],
      },
      ...(retryAfter === undefined ? [] : [{ "@type": `${TYPE}RetryInfo`, retryDelay: `${retryAfter}s` }]),
    ],
  };
}

function contextOverflow(request: WireRequest): GoogleError {
  const count = CONTEXT_WINDOW + estimateTokens(JSON.stringify(request.body).length);
  return { code: 400, status: "INVALID_ARGUMENT", message: `The input token count (${count}) exceeds the maximum number of tokens allowed (${CONTEXT_WINDOW}).` };
}

/** Google's error object with a request id added, as the body of an HTTP error or of a `data:` event. */
function errorBody(error: GoogleError): Json {
  const requestInfo = { "@type": `${TYPE}RequestInfo`, requestId: randomId("req_") };
  return { error: { ...error, details: [...(error.details ?? []), requestInfo] } };
}

/** Writes the chunks of one answer: one candidate, running usage totals, one response id. */
class ChunkWriter {
  private readonly responseId = randomId("", 22);

  constructor(
    readonly sink: StreamSink,
    private readonly vertex: boolean,
  ) {}

  data(payload: unknown): void {
    // Google separates its events with CRLF pairs.
    this.sink.write(`data: ${JSON.stringify(payload)}\r\n\r\n`);
  }

  chunk(parts: Json[], usage: Json, finishReason?: string): void {
    const candidate: Json = { content: { parts, role: "model" }, ...(finishReason ? { finishReason } : {}), index: 0 };
    const chunk: Json = { candidates: [candidate], usageMetadata: usage, modelVersion: "scripted-model", responseId: this.responseId };
    if (this.vertex) chunk.createTime = new Date().toISOString();
    this.data(chunk);
  }
}

interface Counts {
  prompt: number;
  cached: number;
  candidates: number;
  thoughts: number;
}

function usageMetadata({ prompt, cached, candidates, thoughts }: Counts): Json {
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
  };
}

/** The scripted counts in Gemini's terms: the prompt includes the cache, thoughts are apart. */
function finalCounts(usage: ResolvedUsage, thinkingChars: number): Counts {
  const thoughts = Math.min(usage.output, estimateTokens(thinkingChars));
  return { prompt: usage.input + usage.cacheRead + usage.cacheWrite, cached: usage.cacheRead, candidates: usage.output - thoughts, thoughts };
}

/** A function call's args: Gemini sends an object, so arguments that are no JSON object cannot be sent. */
function argsOf(call: NonNullable<AnswerTurn["toolCalls"]>[number]): Json | undefined {
  if (call.argumentsText === undefined) return call.input;
  try {
    const parsed: unknown = JSON.parse(call.argumentsText);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : undefined;
  } catch {
    return undefined;
  }
}

async function streamAnswer(res: ServerResponse, turn: AnswerTurn, request: WireRequest, vertex: boolean): Promise<void> {
  const sink = new StreamSink(res);
  const writer = new ChunkWriter(sink, vertex);
  const final = finalCounts(resolveUsage(turn.usage, request.body, answerChars(turn)), turn.thinking?.text.length ?? 0);
  const parts: Json[] = [
    ...splitIntoChunks(turn.thinking?.text ?? "", turn.chunkSize).map((text) => ({ text, thought: true })),
    ...splitIntoChunks(turn.text ?? "", turn.chunkSize).map((text) => ({ text })),
  ];
  const calls = (turn.toolCalls ?? []).flatMap((call): Json[] => {
    const args = argsOf(call);
    return args === undefined ? [] : [{ functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args } }];
  });
  // Gemini 3 signs every answer with function calls; a text answer only when the script says so.
  const signature = turn.thinking?.signature ?? (calls.length > 0 ? randomId("Cs", 64) : undefined);
  if (signature !== undefined) {
    if (calls[0]) calls[0] = { ...calls[0], thoughtSignature: signature };
    else parts.push({ text: "", thoughtSignature: signature });
  }
  parts.push(...calls);
  if (parts.length === 0) parts.push({ text: "" });
  const stopReason = turn.stopReason ?? (turn.toolCalls?.length ? "tool_use" : "end_turn");
  sink.open("text/event-stream");
  for (const [i, part] of parts.entries()) {
    await sink.pause(turn.delayMs ?? 0);
    if (!sink.alive) return;
    const last = i === parts.length - 1;
    // Running totals: the prompt at once, the output as it grows; the last chunk has them all.
    const share = last ? 1 : i / parts.length;
    const counts = { ...final, candidates: Math.floor(final.candidates * share), thoughts: Math.floor(final.thoughts * share) };
    writer.chunk([part], usageMetadata(counts), last ? (FINISH_REASONS[stopReason] ?? stopReason) : undefined);
  }
  sink.end();
}

async function streamFault(res: ServerResponse, turn: FaultTurn & { fault: StreamFault }, request: WireRequest, vertex: boolean): Promise<void> {
  const sink = new StreamSink(res);
  const writer = new ChunkWriter(sink, vertex);
  const usage = resolveUsage(undefined, request.body, 0);
  const running = usageMetadata({ prompt: usage.input, cached: 0, candidates: 0, thoughts: 0 });
  sink.open("text/event-stream");
  if (turn.fault === "empty") {
    writer.chunk([{ text: "" }], running, "STOP");
    sink.end();
    return;
  }
  for (const text of splitIntoChunks(turn.text ?? DEFAULT_FAULT_TEXT, undefined)) writer.chunk([{ text }], running);
  switch (turn.fault) {
    case "error_mid_stream":
      writer.data(errorBody(HTTP_FAULTS.server_error));
      sink.end();
      return;
    case "drop_connection":
      sink.destroy();
      return;
    case "truncated":
      // Ends without a chunk that has a finishReason.
      sink.end();
      return;
    case "stall":
      return;
  }
}

function httpFault(turn: FaultTurn & { fault: HttpFault }, request: WireRequest, vertex: boolean): GoogleError {
  switch (turn.fault) {
    case "rate_limit":
      return rateLimited(turn.retryAfter);
    case "auth":
      return vertex ? VERTEX_UNAUTHENTICATED : API_KEY_INVALID;
    case "context_window_exceeded":
      return contextOverflow(request);
    default:
      return HTTP_FAULTS[turn.fault];
  }
}

const STATUS_OF_CODE: Readonly<Record<number, string>> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE" };

/** The same protocol on both routes; they differ only in how a refused credential is answered. */
function geminiWireFor(vertex: boolean, path: RegExp): Wire {
  return {
    protocol: "gemini",
    matches: (p) => path.test(p),
    async respond(res: ServerResponse, turn: ScriptTurn, request: WireRequest): Promise<void> {
      if (turn.kind !== "fault") return streamAnswer(res, turn, request, vertex);
      if (isStreamFault(turn.fault)) return streamFault(res, { ...turn, fault: turn.fault }, request, vertex);
      const error = httpFault({ ...turn, fault: turn.fault }, request, vertex);
      const headers: Record<string, string> = turn.fault === "rate_limit" && turn.retryAfter !== undefined ? { "retry-after": String(turn.retryAfter) } : {};
      sendJson(res, error.code, errorBody(error), headers);
    },
    sendError(res: ServerResponse, status: number, message: string): void {
      sendJson(res, status, errorBody({ code: status, status: STATUS_OF_CODE[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"), message }));
    },
  };
}

export const geminiWire = geminiWireFor(false, GEMINI_API_PATH);
export const vertexGeminiWire = geminiWireFor(true, VERTEX_PATH);
