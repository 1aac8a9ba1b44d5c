import type { ApiError } from "../../api/errors";

/** How retries are paced; how many there are is a setting (AgentSettings.requestRetries). */
export interface RetryOptions {
  /** First backoff delay; doubles with each attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server-requested wait longer than this is put to the person instead of slept through. */
  maxSilentWaitMs: number;
}

export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = {
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  maxSilentWaitMs: 60_000,
};

export type RetryPlan =
  /** Try again automatically after `delayMs`. */
  | { readonly action: "retry"; delayMs: number; attempt: number }
  /** The server wants a wait longer than we sleep through silently: ask first. */
  | { readonly action: "ask_long_wait"; delayMs: number }
  /** Out of automatic attempts, or not retryable: ask the person. */
  | { readonly action: "ask" };

/**
 * Decides what follows a failed request. `attempt` is how many automatic retries this round
 * has already made, of `maxRetries`. The server's retry-after wins over the backoff when it is given.
 */
export function planRetry(error: ApiError, attempt: number, maxRetries: number, options: RetryOptions): RetryPlan {
  if (!error.retryable || attempt >= maxRetries) return { action: "ask" };
  if (error.retryAfterSeconds !== undefined) {
    const delayMs = Math.max(0, error.retryAfterSeconds * 1000);
    if (delayMs > options.maxSilentWaitMs) return { action: "ask_long_wait", delayMs };
    return { action: "retry", delayMs, attempt: attempt + 1 };
  }
  const delayMs = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return { action: "retry", delayMs, attempt: attempt + 1 };
}
