/** Token and cost sums over a task's `api_req_started` messages, kept up to date incrementally. */
import type { ApiRequestInfo, ChatMessage } from "../../../src/shared/messages";

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

export function sumUsage(messages: readonly ChatMessage[]): UsageTotals {
  let totals = ZERO_USAGE;
  for (const message of messages) totals = addUsage(totals, requestInfo(message));
  return totals;
}

/** Tokens a request put into the context window: its prompt (fresh and cached) plus its answer. */
export function contextTokens(info: ApiRequestInfo): number {
  return info.tokensIn + info.cacheReads + info.cacheWrites + info.tokensOut;
}
