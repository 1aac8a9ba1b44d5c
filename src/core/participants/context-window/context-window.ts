/**
 * The context window's place in the loop. Once the round's content is in the history
 * (historyReady) it records the round's file reads (context/read-ledger.ts, lent to read_file as
 * `reads`; copies a newer read superseded stay whole until the conversation must shrink, so the
 * prompt cache keeps matching, and then go all at once), then looks at how full the window is
 * (context/context-window.ts): past the limit it condenses (the model summarises the
 * conversation, context/condense.ts) or, with auto-condense off or when the summary cannot be
 * had, drops the oldest rounds. `/compact` typed as a reply to any question condenses at once;
 * as a task's first message there is nothing to condense. A provider that refuses a request as
 * too long anyway gets the oldest rounds dropped once (overflowed). Every shortening first asks
 * the participants (a PreCompact hook may say no).
 */
import type { ApiMessage } from "../../../api/types";
import type { AskResponse } from "../../../shared/messages";
import { condenseHistory, SUMMARY_SYSTEM_PROMPT, summaryRequest } from "../../context/condense";
import { contextLimit, estimateTokens, latestUsage } from "../../context/context-window";
import { ReadLedger } from "../../context/read-ledger";
import { truncateConversation } from "../../context/truncate-conversation";
import { SlashCommands } from "../../slash";
import type { LentServices, TaskBeginning, TaskParticipant } from "../../task/participant";
import { RequestRow } from "../../task/request-row";
import type { TaskScope } from "../../task/task-scope";
import { errorText } from "../../util/error-text";

/** The share of the limit the recent rounds kept after condensing may take. */
const KEEP_SHARE = 0.3;

type Trigger = "auto" | "compact";

export class ContextWindow implements TaskParticipant {
  readonly name = "context-window";
  readonly lends: LentServices;
  private readonly reads: ReadLedger;

  constructor(private readonly scope: TaskScope) {
    this.reads = new ReadLedger(scope.messages, () => scope.state.apiRequestCount);
    this.lends = { reads: this.reads };
  }

  /** `/compact` as a new task's first message: there is no conversation to condense, and no request is made. */
  async beginning(start: TaskBeginning): Promise<string | undefined> {
    if (start.kind !== "new" || start.images > 0 || !SlashCommands.isCompact(start.text)) return undefined;
    return "There is nothing to condense: /compact condenses a task's conversation, and this task has none yet. Start a task, then type /compact as a reply.";
  }

  async historyReady(): Promise<void> {
    const { messages } = this.scope;
    const used = await this.scope.withStateLock(() => {
      this.reads.settle();
      const reported = latestUsage(messages.chatMessages);
      // What the last request reported, plus this round's content, which it had not seen.
      return reported === undefined ? undefined : reported + estimateTokens(messages.apiHistory.slice(-1));
    });
    if (used === undefined || used < contextLimit(this.scope.api.getModel().info)) return;
    if (this.scope.settings().autoCondense) await this.condense("auto", used);
    else await this.truncate(used, "The conversation neared the model's context window");
  }

  /** `/compact` as an answer: the conversation is condensed, and the same question is asked again. */
  async answerReceived(answer: AskResponse): Promise<"go_on" | "ask_again"> {
    if (!isCompact(answer)) return "go_on";
    await this.scope.say("user_feedback", "/compact");
    await this.condense("compact", undefined);
    return "ask_again";
  }

  /** The provider refused the request as too long: the oldest half goes, and the request is retried. */
  async overflowed(): Promise<boolean> {
    if (!(await this.scope.mayShorten("context_window_exceeded"))) return false;
    await this.shortenSupersededReads();
    const removed = await this.dropOldest(0.5);
    if (removed === 0) return false;
    await this.scope.say(
      "context_truncated",
      `The conversation no longer fit the model's context window: the ${removed} oldest messages after the task were removed and the request is being retried.`,
    );
    return true;
  }

  /** Summarises the conversation into its first message and the recent rounds; truncates if no summary can be had. */
  private async condense(trigger: Trigger, used: number | undefined): Promise<void> {
    const { messages } = this.scope;
    if (!condenseHistory(messages.apiHistory, "", Number.POSITIVE_INFINITY)) {
      if (trigger === "compact") await this.scope.say("info", "There is nothing to condense yet: the conversation is only its first round.");
      return;
    }
    if (!(await this.scope.mayShorten(trigger === "compact" ? "compact" : "condense"))) return;
    // The summary request is smaller without the superseded copies; a failed summary truncates this history.
    await this.shortenSupersededReads();
    const before = [...messages.apiHistory];
    let summary: string;
    try {
      summary = await this.summarise(before);
    } catch (error) {
      if (this.scope.signal.aborted) return;
      return this.truncate(used, `The conversation could not be condensed (${errorText(error)})`, { hooked: true });
    }
    if (this.scope.signal.aborted) return;
    const keep = Math.floor(contextLimit(this.scope.api.getModel().info) * KEEP_SHARE);
    const result = await this.scope.withStateLock(() => {
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
    await this.scope.say("context_condensed", summary, { condense: { tokensBefore, tokensAfter, trigger } });
  }

  /** The summary request: the same model, no tools; its row in the chat counts its tokens and cost. */
  private async summarise(history: readonly ApiMessage[]): Promise<string> {
    const { messages } = this.scope;
    const lock = <T>(fn: () => T) => this.scope.withStateLock(fn);
    const row = new RequestRow(await this.scope.say("api_req_started", undefined, { apiRequest: RequestRow.emptyInfo() }), messages, lock);
    let text = "";
    try {
      for await (const chunk of this.scope.api.createMessage(SUMMARY_SYSTEM_PROMPT, summaryRequest(history))) {
        if (chunk.type === "text") text += chunk.text;
        else if (chunk.type === "usage") await row.addUsage(chunk);
      }
    } catch (error) {
      await row.change((info) => {
        info.outcome = this.scope.signal.aborted ? "cancelled" : "failed";
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
    if (!hooked && !(await this.scope.mayShorten("truncate"))) return;
    await this.shortenSupersededReads();
    const fraction = used !== undefined && used >= this.scope.api.getModel().info.contextWindow ? 0.75 : 0.5;
    const removed = await this.dropOldest(fraction);
    if (removed === 0) {
      await this.scope.say("info", `${why}, and there are no older rounds left to remove.`);
      return;
    }
    await this.scope.say("context_truncated", `${why}: the ${removed} oldest messages after the task were removed to make room.`);
  }

  /** The conversation shrinks now: the copies of files a newer read superseded become notes, all at once. */
  private shortenSupersededReads(): Promise<number> {
    return this.scope.withStateLock(() => this.reads.shortenSuperseded());
  }

  /** Drops the oldest rounds in whole pairs, under the lock; the ledger forgets what moved. */
  private dropOldest(fraction: number): Promise<number> {
    const { messages } = this.scope;
    return this.scope.withStateLock(() => {
      const result = truncateConversation(messages.apiHistory, fraction);
      if (result.removed > 0) {
        messages.setApiHistory(result.history);
        this.reads.rebase();
      }
      return result.removed;
    });
  }
}

function sameHistory(now: readonly ApiMessage[], then: readonly ApiMessage[]): boolean {
  return now.length === then.length && now.every((message, i) => message === then[i]);
}

function isCompact(answer: AskResponse): boolean {
  return answer.text?.trim().toLowerCase() === "/compact" && !answer.images?.length;
}
