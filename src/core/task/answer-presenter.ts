import pWaitFor from "p-wait-for";
import type { ChatMessage, SayKind } from "../../shared/messages";
import { formatResponse } from "../prompts/responses";
import { Throttle } from "../util/throttle";
import type { AnswerAssembler } from "./answer-assembler";
import type { SayExtra } from "./chat-channel";
import type { MessageState } from "./message-state";
import { sanitizeStreamingText } from "./sanitize-text";
import type { AbortReason, TaskState } from "./task-state";
import type { ToolCall } from "./tool-call";

export interface AnswerPresenterDeps {
  readonly state: TaskState;
  readonly messages: MessageState;
  /** Runs a tool call (a partial one shows its preview). */
  executeTool(call: ToolCall): Promise<void>;
  say(kind: SayKind, text: string, extra?: SayExtra): Promise<number>;
  withStateLock<T>(fn: () => T): Promise<T>;
  report(error: unknown): void;
  /** Interval between partial UI updates of streamed text (first token and tool blocks go at once). */
  readonly partialUpdateIntervalMs?: number;
}

/**
 * Shows one streamed answer as it arrives: its text and reasoning rows (throttled, so a chunk
 * costs what it adds), live previews of tool calls, and then each complete tool call handed to
 * the ToolExecutor, block by block (the seed's presentAssistantMessage).
 */
export class AnswerPresenter {
  private readonly textThrottle: Throttle;
  /** Live previews of tool calls as they stream (the chat row, the editor's diff view). */
  private readonly previewThrottle: Throttle;
  /** Chat rows of the answer being streamed, by block ("text:2", "reasoning"). */
  private readonly streamingRows = new Map<string, number>();
  private reasoningShown = false;

  constructor(private readonly deps: AnswerPresenterDeps) {
    const streaming = { intervalMs: deps.partialUpdateIntervalMs ?? 40, bytesPerSecond: SHOWN_BYTES_PER_SECOND };
    this.textThrottle = new Throttle(streaming, deps.report);
    this.previewThrottle = new Throttle(streaming, deps.report);
  }

  /** A new attempt: its rows are new rows. */
  startAnswer(): void {
    this.streamingRows.clear();
    this.reasoningShown = false;
  }

  /** Reasoning streamed so far, shown as it grows. */
  showReasoning(answer: AnswerAssembler): void {
    this.textThrottle.push(() => this.sayStreaming("reasoning", "reasoning", answer.reasoningText, true), answer.reasoningLength);
  }

  /** The answer moved on from its reasoning (or ended): the reasoning row is final. */
  async closeReasoning(answer: AnswerAssembler): Promise<void> {
    if (!answer.reasoningText || this.reasoningShown) return;
    this.reasoningShown = true;
    await this.textThrottle.flush();
    await this.sayStreaming("reasoning", "reasoning", answer.reasoningText, false);
  }

  /**
   * Advances through the parsed blocks: text to the chat, tool calls to the ToolExecutor. Runs
   * one at a time; calls that arrive while it runs are folded into one more pass.
   */
  async presentAssistantMessage(): Promise<void> {
    const { state, withStateLock } = this.deps;
    // The re-entrancy pair is checked and set with no await between: atomic without the lock,
    // which a chunk would otherwise take twice more (measured: a 4 MB answer 6.0 s -> 8.6 s).
    if (state.abort) return;
    if (state.presentAssistantMessageLocked) {
      state.presentAssistantMessageHasPendingUpdates = true;
      return;
    }
    state.presentAssistantMessageLocked = true;
    state.presentAssistantMessageHasPendingUpdates = false;
    try {
      await this.presentBlocks();
    } catch (error) {
      this.deps.report(error);
      await withStateLock(() => (state.userMessageContentReady = true));
    } finally {
      state.presentAssistantMessageLocked = false;
    }
    if (state.presentAssistantMessageHasPendingUpdates) await this.presentAssistantMessage();
  }

  /** One pass: from the current block on, as far as the blocks are complete. */
  private async presentBlocks(): Promise<void> {
    const { state, withStateLock } = this.deps;
    for (;;) {
      const block = state.assistantMessageContent[state.currentStreamingContentIndex];
      if (!block) {
        if (state.didCompleteReadingStream) await withStateLock(() => (state.userMessageContentReady = true));
        return;
      }
      const partial = block.partial && !state.didCompleteReadingStream;
      if (block.type === "text") {
        if (!state.didRejectTool && !state.didAlreadyUseTool) await this.presentText(state.currentStreamingContentIndex, block.content, partial);
      } else if (partial) {
        const call = { ...block, params: { ...block.params }, partial };
        this.previewThrottle.push(() => this.deps.executeTool(call), paramsSize(call.params));
      } else {
        // A preview still pending or running would land after the call: drop it, let it finish.
        this.previewThrottle.cancel();
        await this.previewThrottle.flush();
        await this.deps.executeTool({ ...block, params: { ...block.params }, partial });
      }
      if (state.abort) return;
      const skipRest = state.didRejectTool || state.didAlreadyUseTool;
      if (partial && !skipRest) return;
      await withStateLock(() => state.currentStreamingContentIndex++);
    }
  }

  /**
   * The stream ended: partial blocks are closed (a tool call among them marked cut off, and the
   * ToolExecutor decides per tool that it does not run), native tool calls join, and this waits
   * until every block is presented and its tool ran.
   */
  async finish(answer: AnswerAssembler, ending: { interrupted: boolean; unclosedParam: string | undefined }): Promise<void> {
    await this.textThrottle.flush();
    await this.closeReasoning(answer);
    const reason = answer.endReason(ending.interrupted);
    const nativeCalls = answer.finishNativeCalls(reason);
    const { state } = this.deps;
    const cutOff = { reason, ...(ending.unclosedParam ? { unclosedParam: ending.unclosedParam } : {}) };
    await this.deps.withStateLock(() => {
      state.assistantMessageContent = [
        ...state.assistantMessageContent.map((b) => (b.type === "tool_use" && b.partial ? { ...b, partial: false, cutOff } : { ...b, partial: false })),
        ...nativeCalls,
      ];
      state.didCompleteReadingStream = true;
    });
    await this.presentAssistantMessage();
    await pWaitFor(() => state.userMessageContentReady || state.abort, { interval: 10 });
  }

  /** Removes the chat rows a failed attempt produced, so the retry does not show them twice. */
  async discard(sinceTs: number): Promise<void> {
    this.cancel();
    await Promise.all([this.textThrottle.flush(), this.previewThrottle.flush()]);
    await pWaitFor(() => !this.deps.state.presentAssistantMessageLocked, { interval: 5 });
    const { messages } = this.deps;
    await this.deps.withStateLock(() => {
      const shownByAttempt = (m: ChatMessage) =>
        m.ts >= sinceTs && m.type === "say" && (m.say === "text" || m.say === "reasoning" || (m.say === "tool" && m.partial));
      messages.remove(messages.chatMessages.filter(shownByAttempt).map((m) => m.ts));
    });
  }

  /** Cancelled mid-answer: its rows stop streaming, and what arrived joins the history marked as interrupted. */
  async keepInterrupted(answer: AnswerAssembler, reason: AbortReason): Promise<void> {
    const shutdown = reason === "shutdown";
    await this.textThrottle.flush();
    const { messages } = this.deps;
    await this.deps.withStateLock(() => {
      for (const message of messages.chatMessages) {
        if (message.partial) messages.update(message.ts, (m) => (m.partial = false));
      }
      answer.note = shutdown ? formatResponse.interruptedByShutdown() : formatResponse.interruptedByUser();
      messages.addApiMessage(answer.toInterruptedApiMessage());
    });
    await this.deps.say("info", shutdown ? "Interrupted: the window closed or reloaded." : "Task cancelled.");
  }

  /** Pending updates are dropped (cancel, a discarded attempt). */
  cancel(): void {
    this.textThrottle.cancel();
    this.previewThrottle.cancel();
  }

  /** Waits for the text update in flight. */
  flush(): Promise<void> {
    return this.textThrottle.flush();
  }

  /**
   * Streamed text is cleaned up only when it is shown (the throttle decides how often), so a
   * chunk costs what it adds, not a pass over the whole text.
   */
  private async presentText(blockIndex: number, content: string, partial: boolean): Promise<void> {
    const row = `text:${blockIndex}`;
    if (partial) {
      this.textThrottle.push(async () => {
        const text = sanitizeStreamingText(content, true);
        // Nothing to show yet (e.g. only the start of a tag has arrived).
        if (text) await this.sayStreaming(row, "text", text, true);
      }, content.length);
      return;
    }
    // A partial update still pending or running would land after the final one.
    this.textThrottle.cancel();
    await this.textThrottle.flush();
    const text = sanitizeStreamingText(content, false);
    if (text) await this.sayStreaming(row, "text", text, false);
  }

  /** Shows or updates the chat row of one streamed block (text or reasoning) of this answer. */
  private async sayStreaming(row: string, kind: "text" | "reasoning", text: string, partial: boolean): Promise<void> {
    const ts = await this.deps.say(kind, text, { partial, updateTs: this.streamingRows.get(row) });
    this.streamingRows.set(row, ts);
  }
}

/**
 * How many bytes of streamed rows are shown per second at most, once rows are big: a row is
 * re-rendered whole (markdown in the webview, a diff in the editor), so a 1 MB row updates about
 * once a second and a 20 KB one at the base interval.
 */
const SHOWN_BYTES_PER_SECOND = 1_000_000;

function paramsSize(params: Readonly<Record<string, string>>): number {
  let size = 0;
  for (const value of Object.values(params)) size += value.length;
  return size;
}
