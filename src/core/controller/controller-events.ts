/**
 * What the Controller tells whoever listens (the panel's session, the CLI, a test), as typed
 * events each listener subscribes to on its own: the task shown, its chat, its open question, a
 * task's end, the History index, the Plan/Act mode and what the person's attention is wanted for.
 */
import type { ChatMessage } from "../../shared/messages";
import type { Notice } from "../../shared/notice";
import type { HistoryItem, OpenQuestion, TaskSummary } from "../../shared/protocol";
import type { AgentMode } from "../../shared/settings";
import type { TaskOutcome } from "../task";
import type { ChatListener } from "../task/message-state";
import { Emitter, type Event } from "../util/event";

/** One change of the current task's chat. */
export type ChatChange =
  | { readonly kind: "added"; readonly message: ChatMessage }
  | { readonly kind: "updated"; readonly message: ChatMessage }
  | { readonly kind: "removed"; readonly timestamps: readonly number[] }
  /** A saved chat loaded in one go (a resumed task). */
  | { readonly kind: "loaded"; readonly messages: readonly ChatMessage[] };

export class ControllerEvents {
  private readonly task: Emitter<TaskSummary | undefined>;
  private readonly finished: Emitter<{ readonly taskId: string; readonly outcome: TaskOutcome }>;
  private readonly chat: Emitter<ChatChange>;
  private readonly question: Emitter<OpenQuestion | undefined>;
  private readonly historyItem: Emitter<HistoryItem>;
  private readonly mode: Emitter<AgentMode>;
  private readonly attention: Emitter<Notice>;

  /** `report`: a listener that throws is reported, and the others still hear the event. */
  constructor(report: (error: unknown) => void) {
    this.task = new Emitter(report);
    this.finished = new Emitter(report);
    this.chat = new Emitter(report);
    this.question = new Emitter(report);
    this.historyItem = new Emitter(report);
    this.mode = new Emitter(report);
    this.attention = new Emitter(report);
  }

  /** A task began (its messages follow) or the chat was cleared (undefined). */
  get onDidChangeTask(): Event<TaskSummary | undefined> {
    return this.task.event;
  }
  get onDidFinishTask() {
    return this.finished.event;
  }
  get onDidChangeChat(): Event<ChatChange> {
    return this.chat.event;
  }
  /** A question opened (announced before its row is shown) or closed (undefined). */
  get onDidChangeQuestion(): Event<OpenQuestion | undefined> {
    return this.question.event;
  }
  /** A saved task was listed or changed (it started, its totals grew, it ended). */
  get onDidChangeHistoryItem(): Event<HistoryItem> {
    return this.historyItem.event;
  }
  /** The Plan/Act mode changed: switched, or a task opened in its own mode. */
  get onDidChangeMode(): Event<AgentMode> {
    return this.mode.event;
  }

  /** A task notifies: a question waits for the person, or its work ended (once each; the host decides how to show it). */
  get onDidNeedAttention(): Event<Notice> {
    return this.attention.event;
  }

  taskChanged(task: TaskSummary | undefined): void {
    this.task.fire(task);
  }

  taskFinished(taskId: string, outcome: TaskOutcome): void {
    this.finished.fire({ taskId, outcome });
  }

  historyItemChanged(item: HistoryItem): void {
    this.historyItem.fire(item);
  }

  modeChanged(mode: AgentMode): void {
    this.mode.fire(mode);
  }

  attentionNeeded(notice: Notice): void {
    this.attention.fire(notice);
  }

  /** A task's chat as events; `follow` hears each added or updated message after the listeners (the History index). */
  chatListener(follow: (message: ChatMessage, added: boolean) => void): ChatListener {
    return {
      onMessageAdded: (message) => {
        this.chat.fire({ kind: "added", message });
        follow(message, true);
      },
      onMessageUpdated: (message) => {
        this.chat.fire({ kind: "updated", message });
        follow(message, false);
      },
      onMessagesRemoved: (timestamps) => this.chat.fire({ kind: "removed", timestamps }),
      onMessagesLoaded: (messages) => this.chat.fire({ kind: "loaded", messages }),
      onQuestionChanged: (question) => this.question.fire(question),
    };
  }

  dispose(): void {
    for (const emitter of [this.task, this.finished, this.chat, this.question, this.historyItem, this.mode, this.attention]) emitter.dispose();
  }
}
