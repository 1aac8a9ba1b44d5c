/** Token and cost sums over a task's `api_req_started` messages: the shared definition, plus the context gauge. */
import type { ApiRequestInfo } from "../../../src/shared/messages";

export { addUsage, requestInfo, sumUsage, ZERO_USAGE, type UsageTotals } from "../../../src/shared/usage";

/** Tokens a request put into the context window: its prompt (fresh and cached) plus its answer. */
export function contextTokens(info: ApiRequestInfo): number {
  return info.tokensIn + info.cacheReads + info.cacheWrites + info.tokensOut;
}
