import { promptCost } from "../../api/cost";
import type { ApiHandler, ApiMessage, ApiStreamUsageChunk } from "../../api/types";
import { estimateTokens } from "../context/context-window";
import type { ApiRequestInfo } from "../../shared/messages";
import type { MessageState } from "./message-state";
import type { RequestParts } from "./request-parts";

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

  /** The request as it is about to go: its size and its prompt's cost, shown until its usage arrives. */
  estimate(parts: RequestParts, history: readonly ApiMessage[], api: ApiHandler): Promise<void> {
    const besides = parts.systemPrompt.length + (parts.tools ? JSON.stringify(parts.tools).length : 0);
    const tokensIn = estimateTokens(history) + Math.ceil(besides / 4);
    const cost = promptCost(api.getModel().info, tokensIn, api.writesPromptCache === true);
    return this.change((row) => {
      row.estimate = { tokensIn, cost };
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
