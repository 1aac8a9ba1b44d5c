/**
 * The one definition of a task's token and cost totals, used by the History index (core) and the
 * task header (webview) alike, so both show the same numbers. "Tokens in" is the fresh input only;
 * cache writes and reads are counted apart, as the providers report them (see api/providers).
 * What a request took of the context window (`contextTokens`) is defined here too. Plain
 * functions, no imports at runtime.
 */
import type { ApiRequestInfo, ChatMessage } from "./messages";

export interface UsageTotals {
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cacheReads: number;
  readonly cacheWrites: number;
  readonly cost: number;
}

export const ZERO_USAGE: UsageTotals = { tokensIn: 0, tokensOut: 0, cacheReads: 0, cacheWrites: 0, cost: 0 };

/** The request info a message contributes to the totals, if any. */
export function requestInfo(message: ChatMessage | undefined): ApiRequestInfo | undefined {
  if (message?.type !== "say" || message.say !== "api_req_started") return undefined;
  return message.apiRequest;
}

/** `totals` plus `sign` times `info` (sign -1 takes back what an older version of a message added). */
export function addUsage(totals: UsageTotals, info: ApiRequestInfo | undefined, sign: 1 | -1 = 1): UsageTotals {
  if (!info) return totals;
  return {
    tokensIn: totals.tokensIn + sign * info.tokensIn,
    tokensOut: totals.tokensOut + sign * info.tokensOut,
    cacheReads: totals.cacheReads + sign * info.cacheReads,
    cacheWrites: totals.cacheWrites + sign * info.cacheWrites,
    cost: totals.cost + sign * info.cost,
  };
}

/**
 * What one request took of the context window: every prompt token however billed (fresh, cache
 * reads, cache writes) and its answer. The context gauge and the decision to condense both use it.
 */
export function contextTokens(info: ApiRequestInfo): number {
  return info.tokensIn + info.cacheReads + info.cacheWrites + info.tokensOut;
}

/** The totals of a task's chat: the sum over its requests. */
export function sumUsage(messages: readonly ChatMessage[]): UsageTotals {
  let totals = ZERO_USAGE;
  for (const message of messages) totals = addUsage(totals, requestInfo(message));
  return totals;
}
