/**
 * Turns whatever a provider SDK threw into an ApiError with a kind, so the agent loop decides
 * what to do from the kind alone. Both SDKs share one error tree shape (Stainless), but the
 * classes are distinct, so both are checked.
 */
import * as AnthropicSdk from "@anthropic-ai/sdk";
import * as OpenAiSdk from "openai";
import { ApiError, isApiError, type ApiErrorKind } from "./errors.js";

export interface ErrorContext {
  /** Who answered, for the message shown to the person, e.g. "Anthropic". */
  provider: string;
  /** We aborted the request ourselves; whatever the SDK threw afterwards is a consequence. */
  aborted?: boolean;
}

type SdkApiError = AnthropicSdk.APIError | OpenAiSdk.APIError;

/** How messages name each kind of failure; the providers with errors of their own SDK use them too. */
export const ERROR_PHRASES: Readonly<Record<ApiErrorKind, string>> = {
  rate_limited: "rate limit reached",
  overloaded: "the service is overloaded",
  server_error: "server error",
  auth: "the API key or the account was refused",
  bad_request: "the request was rejected",
  context_window_exceeded: "the conversation is too long for the model's context window",
  connection_lost: "the connection was lost",
  stalled: "no response arrived in time",
  truncated: "the answer ended before it was complete",
  aborted: "the request was cancelled",
  unknown: "unexpected error",
};

/** Real wordings: Anthropic, OpenAI and vLLM, OpenRouter, llama.cpp. */
const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /exceed(?:s|ed)? (?:the )?context (?:limit|window)/i,
  /maximum context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /exceeds the available context size/i,
];

export function classifyError(error: unknown, context: ErrorContext): ApiError {
  if (isApiError(error)) return error;
  const who = context.provider;
  if (context.aborted || isAbort(error)) {
    return new ApiError("aborted", `${who}: ${ERROR_PHRASES.aborted}`, { cause: error });
  }
  if (error instanceof AnthropicSdk.APIConnectionTimeoutError || error instanceof OpenAiSdk.APIConnectionTimeoutError) {
    return new ApiError("stalled", `${who}: ${ERROR_PHRASES.stalled} (request timeout)`, { cause: error });
  }
  if (error instanceof AnthropicSdk.APIConnectionError || error instanceof OpenAiSdk.APIConnectionError) {
    // Raised before any response arrived: refused, DNS, TLS, reset while sending.
    return new ApiError("connection_lost", `${who}: could not connect (${rootCause(error)})`, { cause: error });
  }
  if (isConnectionDrop(error)) {
    return new ApiError("connection_lost", `${who}: ${ERROR_PHRASES.connection_lost} (${rootCause(error)})`, { cause: error });
  }
  if (error instanceof AnthropicSdk.APIError || error instanceof OpenAiSdk.APIError) {
    return fromSdkApiError(error, who);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError("unknown", `${who}: ${ERROR_PHRASES.unknown}: ${message}`, { cause: error });
}

function fromSdkApiError(error: SdkApiError, who: string): ApiError {
  const detail = describeBody(error);
  // A mid-stream error event has no status; OpenRouter puts the HTTP status in `error.code`.
  const status = error.status ?? (typeof detail.code === "number" ? detail.code : undefined);
  const kind = kindOf(status, detail);
  const statusText = status === undefined ? "in stream" : `HTTP ${status}`;
  const said = withoutStatus(detail.message, error.status);
  return new ApiError(kind, `${who}: ${ERROR_PHRASES[kind]} (${statusText})${said ? `: ${said}` : ""}`, {
    status,
    retryAfterSeconds: kind === "rate_limited" || kind === "overloaded" ? retryAfterSeconds(error.headers) : undefined,
    requestId: requestIdOf(error),
    cause: error,
  });
}

/**
 * The SDKs' own message starts with the status ("401 {…}", "500 status code (no body)"), which
 * ours already names once: what is left is the detail, if any.
 */
function withoutStatus(message: string, status: number | undefined): string {
  if (status === undefined || !message.startsWith(`${status} `)) return message;
  const rest = message.slice(String(status).length + 1).trim();
  return rest === "status code (no body)" ? "" : rest;
}

interface BodyDetail {
  type?: string;
  code?: string | number;
  message: string;
}

/** Anthropic keeps the whole body (`{type:"error", error:{type, message}}`); OpenAI its `error` object. */
function describeBody(error: SdkApiError): BodyDetail {
  const body = asRecord(error.error);
  const inner = asRecord(body?.["error"]) ?? body;
  const type = stringOr(inner?.["type"]) ?? stringOr(error.type);
  const rawCode = inner?.["code"];
  const code = typeof rawCode === "string" || typeof rawCode === "number" ? rawCode : undefined;
  const message = stringOr(inner?.["message"]) ?? error.message;
  // OpenRouter may say only "Provider returned error" and keep the provider's own words here.
  const raw = stringOr(asRecord(inner?.["metadata"])?.["raw"]);
  return { type, code, message: raw && !message.includes(raw) ? `${message}: ${raw}` : message };
}

/** Error `type`s of Anthropic bodies and stream events, and of OpenAI-style bodies. */
const KIND_BY_TYPE: Readonly<Record<string, ApiErrorKind>> = {
  authentication_error: "auth",
  permission_error: "auth",
  // Out of credit: the person must act, as for a bad key.
  billing_error: "auth",
  timeout_error: "server_error",
  rate_limit_error: "rate_limited",
  overloaded_error: "overloaded",
  api_error: "server_error",
  server_error: "server_error",
  invalid_request_error: "bad_request",
  not_found_error: "bad_request",
  request_too_large: "bad_request",
};

const KIND_BY_STATUS: Readonly<Record<number, ApiErrorKind>> = {
  401: "auth",
  402: "auth",
  403: "auth",
  429: "rate_limited",
  529: "overloaded",
};

const CLIENT_STATUSES: ReadonlySet<number> = new Set([400, 404, 413, 422]);

function kindOf(status: number | undefined, body: BodyDetail): ApiErrorKind {
  const clientSide = status === undefined || CLIENT_STATUSES.has(status);
  if (clientSide && isContextOverflow(body)) return "context_window_exceeded";
  // Out of credit is not something waiting fixes; the person must act, as for a bad key.
  if (body.code === "insufficient_quota" || body.type === "billing_error") return "auth";
  const byStatus = status === undefined ? undefined : KIND_BY_STATUS[status];
  if (byStatus) return byStatus;
  // OpenAI-style servers say "overloaded" with a plain 503.
  if (body.type === "overloaded_error" || /overloaded/i.test(body.message)) return "overloaded";
  if (status !== undefined && status >= 500) return "server_error";
  if (status !== undefined && CLIENT_STATUSES.has(status)) return "bad_request";
  if (body.code === "rate_limit_exceeded") return "rate_limited";
  return (body.type && KIND_BY_TYPE[body.type]) || "unknown";
}

export function isContextOverflow(body: { code?: string | number; message: string }): boolean {
  if (body.code === "context_length_exceeded") return true;
  return CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(body.message));
}

/** `retry-after-ms` (Anthropic, OpenAI) is more precise than `retry-after` (seconds or a date). */
export function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const raw = headers?.get("retry-after")?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function requestIdOf(error: SdkApiError): string | undefined {
  return error.requestID ?? error.headers?.get("request-id") ?? error.headers?.get("x-request-id") ?? undefined;
}

function isAbort(error: unknown): boolean {
  if (error instanceof AnthropicSdk.APIUserAbortError || error instanceof OpenAiSdk.APIUserAbortError) return true;
  return error instanceof Error && error.name === "AbortError";
}

/** Node's fetch (undici) reports a socket closed mid-body as `TypeError: terminated`. */
function isConnectionDrop(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof TypeError && current.message === "terminated") return true;
    const code = (current as { code?: unknown }).code;
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") return true;
  }
  return false;
}

/** The deepest message in a cause chain, which names what really happened ("other side closed"). */
export function rootCause(error: unknown): string {
  let current = error;
  let text = String(error);
  for (let depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    text = typeof code === "string" ? `${current.message} [${code}]` : current.message;
  }
  return text;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
