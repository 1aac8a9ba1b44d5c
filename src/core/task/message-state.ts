import type { ApiMessage, ContentBlock } from "../../api/types";
import type { ChatMessage, ConversationPoint } from "../../shared/messages";
import { isEnvironmentDetails } from "../context/environment-details";
import type { OpenQuestion } from "../../shared/protocol";
import type { HistoryJournal } from "../storage/journal";
import type { TaskStorage } from "../storage/task-storage";

/** Who hears about chat changes (the Controller, which forwards deltas to the UI). */
export interface ChatListener {
  onMessageAdded(message: ChatMessage): void;
  onMessageUpdated(message: ChatMessage): void;
  onMessagesRemoved(timestamps: readonly number[]): void;
  /** A saved chat was loaded in one go (a resumed task). */
  onMessagesLoaded?(messages: readonly ChatMessage[]): void;
  /** A question opened (announced before its row is shown) or closed (undefined). */
  onQuestionChanged?(question: OpenQuestion | undefined): void;
}

/**
 * The two histories of a task: the chat the person sees and the conversation the model sees.
 * Each change is recorded in the task's journals before it is announced, so what the person saw
 * survives a kill of Tandem. Streaming updates are announced at once but recorded only when the
 * message completes (its first appearance is recorded, so it keeps its place).
 */
export class MessageState {
  readonly chatMessages: ChatMessage[] = [];
  apiHistory: ApiMessage[] = [];
  private readonly indexByTs = new Map<number, number>();
  private lastTs = 0;
  private readonly chatJournal: HistoryJournal<ChatMessage> | undefined;
  private readonly apiJournal: HistoryJournal<ApiMessage> | undefined;
  /** The task is over and its histories saved: a late change (a background command's end) is dropped. */
  private closed = false;

  constructor(
    private readonly listener: ChatListener,
    storage: TaskStorage | undefined,
    onPersistError: (error: unknown) => void,
  ) {
    this.chatJournal = storage?.chatJournal(() => this.chatMessages, onPersistError);
    this.apiJournal = storage?.apiJournal(() => this.apiHistory, onPersistError);
  }

  /** A timestamp unique within this task, so it can identify a message. */
  nextTs(): number {
    this.lastTs = Math.max(Date.now(), this.lastTs + 1);
    return this.lastTs;
  }

  /** Restores saved histories (resume); they are recorded whole, as the resumed task tidied them. */
  load(chat: readonly ChatMessage[], api: readonly ApiMessage[]): void {
    this.chatMessages.splice(0, this.chatMessages.length, ...chat);
    this.rebuildIndex();
    this.apiHistory = [...api];
    this.lastTs = chat.reduce((max, m) => Math.max(max, m.ts), this.lastTs);
    this.chatJournal?.append({ reset: this.chatMessages });
    this.apiJournal?.append({ reset: this.apiHistory });
    this.listener.onMessagesLoaded?.(this.chatMessages);
  }

  get lastMessage(): ChatMessage | undefined {
    return this.chatMessages.at(-1);
  }

  find(ts: number): ChatMessage | undefined {
    const index = this.indexByTs.get(ts);
    return index === undefined ? undefined : this.chatMessages[index];
  }

  add(message: ChatMessage): void {
    if (this.closed) return;
    this.indexByTs.set(message.ts, this.chatMessages.length);
    this.chatMessages.push(message);
    this.chatJournal?.append({ push: message });
    this.listener.onMessageAdded(message);
  }

  /** Applies a change to a message in place and announces it; persists once it is complete. */
  update(ts: number, change: (message: ChatMessage) => void): ChatMessage | undefined {
    const message = this.closed ? undefined : this.find(ts);
    if (!message) return undefined;
    change(message);
    if (!message.partial) this.chatJournal?.append({ set: message });
    this.listener.onMessageUpdated(message);
    return message;
  }

  /** Removes the given messages (a failed attempt's partial output before it is retried). */
  remove(timestamps: readonly number[]): void {
    if (this.closed) return;
    if (timestamps.length === 0) return;
    const doomed = new Set(timestamps);
    const kept = this.chatMessages.filter((m) => !doomed.has(m.ts));
    this.chatMessages.splice(0, this.chatMessages.length, ...kept);
    this.rebuildIndex();
    this.chatJournal?.append({ drop: timestamps });
    this.listener.onMessagesRemoved(timestamps);
  }

  addApiMessage(message: ApiMessage): void {
    if (this.closed) return;
    this.apiHistory.push(message);
    this.apiJournal?.append({ push: message });
  }

  /**
   * Where the conversation stands now, for going back to it (an edit of the person's words, a
   * restore): its message count, and the blocks of its last message that a later merge keeps (a
   * trailing environment details block is superseded by the next request's, so it is not counted).
   */
  conversationPoint(): ConversationPoint {
    const content = this.apiHistory.at(-1)?.content;
    if (content === undefined) return { messages: 0, lastBlocks: 0 };
    if (typeof content === "string") return { messages: this.apiHistory.length, lastBlocks: 1 };
    const last = content.at(-1);
    const trailingDetails = last?.type === "text" && isEnvironmentDetails(last.text) ? 1 : 0;
    return { messages: this.apiHistory.length, lastBlocks: content.length - trailingDetails };
  }

  /**
   * Adds the next user turn. After a user message (a resumed task ends on its tool results) the
   * two are merged, in one recorded change, so roles keep alternating and a crash can never
   * leave the history without those results.
   */
  addUserContent(content: ContentBlock[], supersedes?: (block: ContentBlock) => boolean): void {
    const last = this.apiHistory.at(-1);
    if (last?.role !== "user") return this.addApiMessage({ role: "user", content });
    const before = typeof last.content === "string" ? [{ type: "text" as const, text: last.content }] : last.content;
    // `supersedes`: blocks the new content replaces (the environment details of a request that got no answer).
    const kept = supersedes ? before.filter((b) => !supersedes(b)) : before;
    this.setApiHistory([...this.apiHistory.slice(0, -1), { role: "user", content: [...kept, ...content] }]);
  }

  /** Replaces one message in place (an old read's text made short): one small record, not the whole history. */
  replaceApiMessage(index: number, message: ApiMessage): void {
    if (this.closed) return;
    if (index < 0 || index >= this.apiHistory.length) throw new RangeError(`There is no API message ${index} to replace.`);
    this.apiHistory[index] = message;
    this.apiJournal?.append({ replace: { index, item: message } });
  }

  setApiHistory(history: ApiMessage[]): void {
    if (this.closed) return;
    this.apiHistory = history;
    this.apiJournal?.append({ reset: history });
  }

  /** Resolves when everything announced so far is on the disk itself (safe from a power cut too). */
  async flush(): Promise<void> {
    await Promise.all([this.chatJournal?.flush(), this.apiJournal?.flush()]);
  }

  /**
   * The task is disposed: from now on nothing is recorded or announced (a background command
   * killed with the task ends after this, and its folder may be deleted by then); then flushes.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private rebuildIndex(): void {
    this.indexByTs.clear();
    this.chatMessages.forEach((m, i) => this.indexByTs.set(m.ts, i));
  }
}
