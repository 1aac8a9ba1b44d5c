/**
 * Provider failures, classified so the agent loop can decide what to do from the kind
 * alone (retry, back off, truncate the context, ask the person) and never from strings.
 */
export type ApiErrorKind =
  /** 429: too many requests; `retryAfterSeconds` when the server said. */
  | "rate_limited"
  /** 529 or an `overloaded_error` event: the provider is busy. */
  | "overloaded"
  /** 5xx or an `api_error` event. */
  | "server_error"
  /** 401/403: bad or missing key. Never retried. */
  | "auth"
  /** 400/404/422 that is not a context overflow: the request itself is wrong. */
  | "bad_request"
  /** The prompt does not fit the model's context window. */
  | "context_window_exceeded"
  /** The connection dropped after the stream started (the SDKs throw `TypeError: terminated`). */
  | "connection_lost"
  /** No bytes arrived for the idle timeout. */
  | "stalled"
  /** The stream ended without the provider's end marker. */
  | "truncated"
  /** The request was aborted by us. */
  | "aborted"
  /** Anything else. */
  | "unknown";

const RETRYABLE: ReadonlySet<ApiErrorKind> = new Set([
  "rate_limited",
  "overloaded",
  "server_error",
  "connection_lost",
  "stalled",
  "truncated",
  "unknown",
]);

export interface ApiErrorDetails {
  status?: number;
  retryAfterSeconds?: number;
  requestId?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly requestId?: string;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message, { cause: details.cause });
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.requestId = details.requestId;
  }

  /** Whether trying the same request again can succeed. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The error with every copy of `secret` in its message replaced by "[key]": a server may echo the
 * key it was sent (a hostile base URL, a proxy's verbose 401), and the message goes to the chat,
 * the task's history on disk and the CLI's output.
 */
export function withoutSecret(error: ApiError, secret: string | undefined): ApiError {
  if (!secret || secret.length < 8 || !error.message.includes(secret)) return error;
  const { status, retryAfterSeconds, requestId } = error;
  return new ApiError(error.kind, error.message.split(secret).join("[key]"), { status, retryAfterSeconds, requestId });
}
