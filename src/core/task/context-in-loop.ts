/**
 * The context window's place in the loop. Before each request (Task.makeRequest, once the round's
 * content is in the history) it records the round's file reads, shortening copies a newer read
 * superseded (context/read-ledger.ts), then looks at how full the window is (context-window.ts):
 * past the limit it condenses (the model summarises the conversation, context/condense.ts) or,
 * with auto-condense off or when the summary cannot be had, drops the oldest rounds. `/compact`,
 * typed as a reply to any question, condenses at once. The provider refusing an overlong request
 * anyway stays handled by the ApiRequestRetrier, as the last resort.
 */
import type { ApiHandler, ApiMessage } from "../../api/types";
import type { AskResponse, SayKind } from "../../shared/messages";
import type { AgentSettings } from "../../shared/settings";
import { condenseHistory, SUMMARY_SYSTEM_PROMPT, summaryRequest } from "../context/condense";
import { contextLimit, estimateTokens, latestUsage } from "../context/context-window";
import { ReadLedger } from "../context/read-ledger";
import { truncateConversation } from "../context/truncate-conversation";
import { errorText } from "../util/error-text";
import type { SayExtra } from "./chat-channel";
import type { MessageState } from "./message-state";
import { RequestRow } from "./request-row";

/** The share of the limit the recent rounds kept after condensing may take. */
const KEEP_SHARE = 0.3;

export interface ContextInLoopDeps {
  readonly api: ApiHandler;
  readonly messages: MessageState;
  readonly signal: AbortSignal;
  settings(): AgentSettings;
  /** The task's request count: the round a read is recorded in. */
  round(): number;
  say(kind: SayKind, text?: string, extra?: SayExtra): Promise<number>;
  withStateLock<T>(fn: () => T): Promise<T>;
  /** PreCompact (core/hooks): false when a hook cancelled the shortening. */
  beforeCompact?(reason: string, messages: number): Promise<boolean>;
}

type Trigger = "auto" | "compact";

export class ContextInLoop {
  readonly reads: ReadLedger;

  constructor(private readonly deps: ContextInLoopDeps) {
    this.reads = new ReadLedger(deps.messages, deps.round);
  }

  /** Called once the round's content is in the history, before its request is made. */
  async beforeRequest(): Promise<void> {
    const { messages } = this.deps;
    const used = await this.deps.withStateLock(() => {
      this.reads.settle();
      const reported = latestUsage(messages.chatMessages);
      // What the last request reported, plus this round's content, which it had not seen.
      return reported === undefined ? undefined : reported + estimateTokens(messages.apiHistory.slice(-1));
    });
    if (used === undefined || used < contextLimit(this.deps.api.getModel().info)) return;
    if (this.deps.settings().autoCondense) await this.condense("auto", used);
    else await this.truncate(used, "The conversation neared the model's context window");
  }

  /**
   * The person's answer, unless it was `/compact`: then the conversation is condensed and the
   * same question asked again, until a real answer comes.
   */
  async answerOf(ask: () => Promise<AskResponse>): Promise<AskResponse> {
    for (;;) {
      const answer = await ask();
      if (!isCompact(answer) || this.deps.signal.aborted) return answer;
      await this.deps.say("user_feedback", "/compact");
      await this.condense("compact", undefined);
    }
  }

  /** The PreCompact hooks' say, once per shortening (a condense that falls back to truncation asked already). */
  private hookAllows(reason: string): Promise<boolean> {
    return this.deps.beforeCompact?.(reason, this.deps.messages.apiHistory.length) ?? Promise.resolve(true);
  }

  /** Summarises the conversation into its first message and the recent rounds; truncates if no summary can be had. */
  private async condense(trigger: Trigger, used: number | undefined): Promise<void> {
    const { messages } = this.deps;
    const before = [...messages.apiHistory];
    if (!condenseHistory(before, "", Number.POSITIVE_INFINITY)) {
      if (trigger === "compact") await this.deps.say("info", "There is nothing to condense yet: the conversation is only its first round.");
      return;
    }
    if (!(await this.hookAllows(trigger === "compact" ? "compact" : "condense"))) return;
    let summary: string;
    try {
      summary = await this.summarise(before);
    } catch (error) {
      if (this.deps.signal.aborted) return;
      return this.truncate(used, `The conversation could not be condensed (${errorText(error)})`, { hooked: true });
    }
    if (this.deps.signal.aborted) return;
    const keep = Math.floor(contextLimit(this.deps.api.getModel().info) * KEEP_SHARE);
    const result = await this.deps.withStateLock(() => {
      // A history changed meanwhile (it should not be, while the task waits) is not overwritten.
      if (!sameHistory(messages.apiHistory, before)) return undefined;
      const condensed = condenseHistory(before, summary, keep);
      if (condensed) {
        messages.setApiHistory(condensed.history);
        this.reads.rebase();
      }
      return condensed;
    });
    if (!result) return;
    const oldSize = estimateTokens(before);
    const tokensBefore = used ?? oldSize;
    const tokensAfter = Math.max(0, tokensBefore - oldSize + estimateTokens(result.history));
    await this.deps.say("context_condensed", summary, { condense: { tokensBefore, tokensAfter, trigger } });
  }

  /** The summary request: the same model, no tools; its row in the chat counts its tokens and cost. */
  private async summarise(history: readonly ApiMessage[]): Promise<string> {
    const { messages } = this.deps;
    const lock = <T>(fn: () => T) => this.deps.withStateLock(fn);
    const row = new RequestRow(await this.deps.say("api_req_started", undefined, { apiRequest: RequestRow.emptyInfo() }), messages, lock);
    let text = "";
    try {
      for await (const chunk of this.deps.api.createMessage(SUMMARY_SYSTEM_PROMPT, summaryRequest(history))) {
        if (chunk.type === "text") text += chunk.text;
        else if (chunk.type === "usage") await row.addUsage(chunk);
      }
    } catch (error) {
      await row.change((info) => {
        info.outcome = this.deps.signal.aborted ? "cancelled" : "failed";
        info.error = errorText(error);
      });
      throw error;
    }
    await row.change((info) => (info.outcome = "completed"));
    if (!text.trim()) throw new Error("the model's summary was empty");
    return text;
  }

  /** Drops the oldest rounds in whole pairs (half of them; three quarters when past the window itself). */
  private async truncate(used: number | undefined, why: string, { hooked = false } = {}): Promise<void> {
    const { messages } = this.deps;
    if (!hooked && !(await this.hookAllows("truncate"))) return;
    const fraction = used !== undefined && used >= this.deps.api.getModel().info.contextWindow ? 0.75 : 0.5;
    const removed = await this.deps.withStateLock(() => {
      const result = truncateConversation(messages.apiHistory, fraction);
      if (result.removed > 0) {
        messages.setApiHistory(result.history);
        this.reads.rebase();
      }
      return result.removed;
    });
    if (removed === 0) {
      await this.deps.say("info", `${why}, and there are no older rounds left to remove.`);
      return;
    }
    await this.deps.say("context_truncated", `${why}: the ${removed} oldest messages after the task were removed to make room.`);
  }
}

function sameHistory(now: readonly ApiMessage[], then: readonly ApiMessage[]): boolean {
  return now.length === then.length && now.every((message, i) => message === then[i]);
}

function isCompact(answer: AskResponse): boolean {
  return answer.text?.trim().toLowerCase() === "/compact" && !answer.images?.length;
}
