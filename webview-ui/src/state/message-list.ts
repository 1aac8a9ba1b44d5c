/**
 * The chat messages in order, with an index from timestamp to position so that a streamed update
 * replaces one slot in O(1) instead of copying the list. Only a full replace and a removal walk the
 * whole list, and both are rare.
 */
import type { ChatMessage } from "../../../src/shared/messages";

export class MessageList {
  private items: ChatMessage[] = [];
  private positions = new Map<number, number>();
  /** Slots and index entries written so far; the linear-work test reads it. */
  operations = 0;

  get length(): number {
    return this.items.length;
  }

  at(index: number): ChatMessage | undefined {
    return this.items[index];
  }

  get(ts: number): ChatMessage | undefined {
    const position = this.positions.get(ts);
    return position === undefined ? undefined : this.items[position];
  }

  /** The position of the message with timestamp `ts`, or -1. */
  indexOf(ts: number): number {
    return this.positions.get(ts) ?? -1;
  }

  values(): readonly ChatMessage[] {
    return this.items;
  }

  replaceAll(messages: readonly ChatMessage[]): void {
    this.items = [];
    this.positions = new Map();
    for (const message of messages) this.upsert(message);
  }

  /** Replaces the message with the same `ts`, or appends it. Returns the message it replaced. */
  upsert(message: ChatMessage): ChatMessage | undefined {
    const position = this.positions.get(message.ts);
    this.operations++;
    if (position !== undefined) {
      const previous = this.items[position];
      this.items[position] = message;
      return previous;
    }
    this.positions.set(message.ts, this.items.length);
    this.items.push(message);
    this.operations++;
    return undefined;
  }

  /** Drops the given timestamps (unknown ones are ignored) and returns the messages removed. */
  remove(timestamps: readonly number[]): ChatMessage[] {
    const doomed = new Set(timestamps);
    const removed = this.items.filter((message) => doomed.has(message.ts));
    if (removed.length === 0) return removed;
    this.replaceAll(this.items.filter((message) => !doomed.has(message.ts)));
    return removed;
  }
}
