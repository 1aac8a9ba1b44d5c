import type { ApiRequestInfo, AskKind, AskMessage, AskOutcome, AskResponse, ChatMessage, SayKind } from "../../shared/messages";
import type { OpenQuestion } from "../../shared/protocol";
import type { MessageState } from "./message-state";
import { questionFor } from "./question-answers";

export interface SayExtra {
  partial?: boolean;
  images?: string[];
  tool?: ChatMessage["tool"];
  apiRequest?: ApiRequestInfo;
  retry?: ChatMessage["retry"];
  checkpoint?: ChatMessage["checkpoint"];
  hook?: ChatMessage["hook"];
  focusChain?: ChatMessage["focusChain"];
  condense?: ChatMessage["condense"];
  command?: ChatMessage["command"];
  ledger?: ChatMessage["ledger"];
  /** Update this message (a streaming row) instead of the last one. */
  updateTs?: number;
}

export interface AskExtra {
  options?: string[];
  tool?: ChatMessage["tool"];
  /** Aborting it takes the question back if nobody answered yet; the ask then resolves "no". */
  withdraw?: AbortSignal;
}

/** Who hears of the open question: when it opens and closes (`changed`), and once its row is shown. */
export interface QuestionWatch {
  changed(question: OpenQuestion | undefined): void;
  /** Its row is on screen and it is still open: the task now waits for the person. */
  shown(row: AskMessage): void;
}

/**
 * The Task's two mouths: `say` reports, `ask` waits for the person. At most one question is open
 * at a time, and this is its one owner: it is announced when it opens and when it closes. Its
 * promise resolves when the Controller delivers an answer naming it, when the task is cancelled
 * ("no"), or when the asker withdraws it. Every change of the chat happens under the state lock.
 */
export class ChatChannel {
  private open: { question: OpenQuestion; resolve: (response: AskResponse) => void } | undefined;

  constructor(
    private readonly messages: MessageState,
    private readonly withStateLock: <T>(fn: () => T) => Promise<T>,
    private readonly isAborted: () => boolean,
    private readonly reportError: (error: unknown) => void,
    private readonly questions: QuestionWatch,
  ) {}

  say(kind: SayKind, text?: string, extra: SayExtra = {}): Promise<number> {
    return this.withStateLock(() => {
      const { partial = false, updateTs, ...fields } = extra;
      // A streaming message updates its own row even if other rows were added after it.
      if (updateTs !== undefined && this.messages.find(updateTs)) {
        this.messages.update(updateTs, (m) => Object.assign(m, { text, partial }, fields));
        return updateTs;
      }
      const last = this.messages.lastMessage;
      if (last?.partial && last.type === "say" && last.say === kind) {
        this.messages.update(last.ts, (m) => Object.assign(m, { text, partial }, fields));
        return last.ts;
      }
      this.finishStreamingMessage();
      const ts = this.messages.nextTs();
      // The person's words record where the conversation stood: an edit of them goes back there.
      const person = kind === "task" || kind === "user_feedback" ? { conversationAt: this.messages.conversationPoint() } : {};
      this.messages.add({ ts, type: "say", say: kind, text, partial, ...fields, ...person });
      return ts;
    });
  }

  async ask(kind: AskKind, text: string, { withdraw, ...extra }: AskExtra = {}): Promise<AskResponse> {
    if (this.isAborted() || withdraw?.aborted) return { type: "no" };
    let askTs: number | undefined;
    const answer = new Promise<AskResponse>((resolve) => {
      this.withStateLock(() => {
        if (this.isAborted()) return resolve({ type: "no" });
        if (this.open) throw new Error(`Tandem asked "${kind}" while another question was still open`);
        const last = this.messages.lastMessage;
        // A streamed tool preview becomes the approval question in place.
        const replacesPreview = last?.partial && last.type === "say" && last.say === "tool" && kind === "tool";
        const ts = last && replacesPreview ? last.ts : this.messages.nextTs();
        askTs = ts;
        // Open and announced before it is shown: a listener may answer synchronously while seeing it.
        this.open = { question: questionFor(ts, kind, extra.tool), resolve };
        this.questions.changed(this.open.question);
        if (replacesPreview) {
          this.messages.update(ts, (m) => Object.assign(m, { type: "ask", ask: kind, say: undefined, text, partial: false }, extra));
        } else {
          this.finishStreamingMessage();
          this.messages.add({ ts, type: "ask", ask: kind, text, partial: false, ...extra });
        }
        // A listener may have answered it while it opened: then nobody waits for the person.
        const row = this.messages.find(ts);
        if (this.open?.question.id === ts && row?.type === "ask") this.questions.shown(row);
      }).catch((error: unknown) => {
        this.reportError(error);
        resolve({ type: "no" });
      });
    });
    if (!withdraw) return answer;
    const onWithdraw = () => void this.withdraw(askTs);
    withdraw.addEventListener("abort", onWithdraw, { once: true });
    return answer.finally(() => withdraw.removeEventListener("abort", onWithdraw));
  }

  /** Delivers the person's answer to question `questionId`. Returns false if that question is not the open one. */
  answer(questionId: number, response: AskResponse): boolean {
    if (this.open?.question.id !== questionId) return false;
    return this.close(response, response.type);
  }

  get openQuestion(): OpenQuestion | undefined {
    return this.open?.question;
  }

  /**
   * On cancel: the open question resolves "no" at once. `recordCancel` false (the host is going
   * away) leaves its row as it was: nobody answered it, and the next window shows it unchanged.
   */
  cancelPendingAsk(recordCancel = true): void {
    this.close({ type: "no" }, recordCancel ? "cancelled" : undefined);
  }

  /** Resolves the open question and records on its row how it ended (the row says "rejected", say). */
  private close(response: AskResponse, outcome: AskOutcome | undefined): boolean {
    const pending = this.open;
    if (!pending) return false;
    this.open = undefined;
    this.questions.changed(undefined);
    pending.resolve(response);
    if (outcome === undefined) return true;
    this.withStateLock(() => {
      this.messages.update(pending.question.id, (m) => {
        if (m.type === "ask") m.outcome = outcome;
      });
    }).catch(this.reportError);
    return true;
  }

  /** Takes back a question nobody answered: it leaves the chat and its promise resolves "no". */
  private async withdraw(ts: number | undefined): Promise<void> {
    await this.withStateLock(() => {
      const pending = this.open;
      if (!pending || pending.question.id !== ts) return;
      this.open = undefined;
      this.questions.changed(undefined);
      this.messages.remove([pending.question.id]);
      pending.resolve({ type: "no" });
    });
  }

  /** A new message means the previous streaming one is complete. Called under the state lock. */
  private finishStreamingMessage(): void {
    const last = this.messages.lastMessage;
    if (last?.partial) this.messages.update(last.ts, (m) => (m.partial = false));
  }
}

