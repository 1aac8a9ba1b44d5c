import type { ApiStreamUsageChunk } from "../../api/types";
import type { ApiRequestInfo } from "../../shared/messages";
import type { MessageState } from "./message-state";

/**
 * The chat row of one round's request ("api_req_started"): its token counts and cost as usage
 * arrives, and how the request ended. Every change goes through the Task's state lock.
 */
export class RequestRow {
  constructor(
    readonly ts: number,
    private readonly messages: MessageState,
    private readonly withStateLock: <T>(fn: () => T) => Promise<T>,
  ) {}

  static emptyInfo(): ApiRequestInfo {
    return { tokensIn: 0, tokensOut: 0, cacheWrites: 0, cacheReads: 0, cost: 0 };
  }

  addUsage(usage: ApiStreamUsageChunk): Promise<void> {
    return this.change((info) => {
      info.tokensIn += usage.inputTokens;
      info.tokensOut += usage.outputTokens;
      info.cacheWrites += usage.cacheWriteTokens ?? 0;
      info.cacheReads += usage.cacheReadTokens ?? 0;
      info.cost += usage.totalCost ?? 0;
    });
  }

  change(edit: (info: ApiRequestInfo) => void): Promise<void> {
    return this.withStateLock(() => {
      this.messages.update(this.ts, (m) => {
        m.apiRequest ??= RequestRow.emptyInfo();
        edit(m.apiRequest);
      });
    });
  }
}
