import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { CoalescingWriter } from "../storage/coalescing-writer";
import type { TaskStorage } from "../storage/task-storage";

/** Who hears about chat changes (the Controller, which forwards deltas to the UI). */
export interface ChatListener {
  onMessageAdded(message: ChatMessage): void;
  onMessageUpdated(message: ChatMessage): void;
  onMessagesRemoved(timestamps: readonly number[]): void;
  /** A saved chat was loaded in one go (a resumed task). */
  onMessagesLoaded?(messages: readonly ChatMessage[]): void;
}

/**
 * The two histories of a task: the chat the person sees and the conversation the model sees.
 * Streaming updates are announced at once but persisted only when a message completes;
 * persistence is coalesced and never blocks the caller.
 */
export class MessageState {
  readonly chatMessages: ChatMessage[] = [];
  apiHistory: ApiMessage[] = [];
  private readonly indexByTs = new Map<number, number>();
  private lastTs = 0;
  private readonly chatWriter: CoalescingWriter | undefined;
  private readonly apiWriter: CoalescingWriter | undefined;

  constructor(
    private readonly listener: ChatListener,
    storage: TaskStorage | undefined,
    onPersistError: (error: unknown) => void,
  ) {
    if (storage) {
      this.chatWriter = new CoalescingWriter(() => storage.saveChatMessages(this.chatMessages), onPersistError);
      this.apiWriter = new CoalescingWriter(() => storage.saveApiHistory(this.apiHistory), onPersistError);
    }
  }

  /** A timestamp unique within this task, so it can identify a message. */
  nextTs(): number {
    this.lastTs = Math.max(Date.now(), this.lastTs + 1);
    return this.lastTs;
  }

  /** Restores saved histories (resume). */
  load(chat: readonly ChatMessage[], api: readonly ApiMessage[]): void {
    this.chatMessages.splice(0, this.chatMessages.length, ...chat);
    this.rebuildIndex();
    this.apiHistory = [...api];
    this.lastTs = chat.reduce((max, m) => Math.max(max, m.ts), this.lastTs);
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
    this.indexByTs.set(message.ts, this.chatMessages.length);
    this.chatMessages.push(message);
    this.listener.onMessageAdded(message);
    if (!message.partial) void this.chatWriter?.request();
  }

  /** Applies a change to a message in place and announces it; persists once it is complete. */
  update(ts: number, change: (message: ChatMessage) => void): ChatMessage | undefined {
    const message = this.find(ts);
    if (!message) return undefined;
    change(message);
    this.listener.onMessageUpdated(message);
    if (!message.partial) void this.chatWriter?.request();
    return message;
  }

  /** Removes the given messages (a failed attempt's partial output before it is retried). */
  remove(timestamps: readonly number[]): void {
    if (timestamps.length === 0) return;
    const doomed = new Set(timestamps);
    const kept = this.chatMessages.filter((m) => !doomed.has(m.ts));
    this.chatMessages.splice(0, this.chatMessages.length, ...kept);
    this.rebuildIndex();
    this.listener.onMessagesRemoved(timestamps);
    void this.chatWriter?.request();
  }

  addApiMessage(message: ApiMessage): void {
    this.apiHistory.push(message);
    void this.apiWriter?.request();
  }

  setApiHistory(history: ApiMessage[]): void {
    this.apiHistory = history;
    void this.apiWriter?.request();
  }

  /** Resolves when everything announced so far is on disk. */
  async flush(): Promise<void> {
    await Promise.all([this.chatWriter?.flush(), this.apiWriter?.flush()]);
  }

  private rebuildIndex(): void {
    this.indexByTs.clear();
    this.chatMessages.forEach((m, i) => this.indexByTs.set(m.ts, i));
  }
}
