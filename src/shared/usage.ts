/**
 * The one definition of a task's token and cost totals, used by the History index (core) and the
 * task header (webview) alike, so both show the same numbers. "Tokens in" is the fresh input only;
 * cache writes and reads are counted apart, as the providers report them (see api/providers).
 * What a request took of the context window (`contextTokens`) is defined here too. A restore
 * removes requests from the chat but not from the bill: its `checkpoint_restored` row carries
 * their sum (`removedRequests`), which the totals count like a request. Plain functions, no
 * imports at runtime.
 */
import type { ApiRequestInfo, ChatMessage, RemovedRequests } from "./messages";

export interface UsageTotals {
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cacheReads: number;
  readonly cacheWrites: number;
  readonly cost: number;
}

export const ZERO_USAGE: UsageTotals = { tokensIn: 0, tokensOut: 0, cacheReads: 0, cacheWrites: 0, cost: 0 };

/** The request a message shows (its tokens and cost, what it took of the context window), if any. */
export function requestInfo(message: ChatMessage | undefined): ApiRequestInfo | undefined {
  if (message?.type !== "say" || message.say !== "api_req_started") return undefined;
  return message.apiRequest;
}

/** A request's estimate while it is all there is: no usage has arrived and the request has not ended. */
export function openEstimate(message: ChatMessage | undefined): { tokensIn: number; cost: number } | undefined {
  const info = requestInfo(message);
  if (!info?.estimate || info.outcome !== undefined) return undefined;
  return info.tokensIn + info.tokensOut + info.cacheWrites + info.cacheReads > 0 ? undefined : info.estimate;
}

/** What a message adds to the task's totals: a request's usage, or what the requests a restore removed had cost. */
export function billedUsage(message: ChatMessage | undefined): UsageTotals | undefined {
  if (message?.type !== "say") return undefined;
  if (message.say === "checkpoint_restored") return message.removedRequests;
  return requestInfo(message);
}

/** How many requests a message stands for in the bill (a restore's row: those it removed). */
export function billedRequestCount(message: ChatMessage): number {
  if (message.type !== "say") return 0;
  if (message.say === "checkpoint_restored") return message.removedRequests?.requests ?? 0;
  return message.say === "api_req_started" && message.apiRequest ? 1 : 0;
}

/** The sum of what `messages` billed, to carry past a restore that removes them; undefined when they billed nothing. */
export function removedRequests(messages: readonly ChatMessage[]): RemovedRequests | undefined {
  let requests = 0;
  for (const message of messages) requests += billedRequestCount(message);
  return requests === 0 ? undefined : { requests, ...sumUsage(messages) };
}

/** `totals` plus `sign` times `info` (sign -1 takes back what an older version of a message added). */
export function addUsage(totals: UsageTotals, info: UsageTotals | undefined, sign: 1 | -1 = 1): UsageTotals {
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

/** The totals of a task's chat: the sum over its requests, those a restore removed included. */
export function sumUsage(messages: readonly ChatMessage[]): UsageTotals {
  let totals = ZERO_USAGE;
  for (const message of messages) totals = addUsage(totals, billedUsage(message));
  return totals;
}
