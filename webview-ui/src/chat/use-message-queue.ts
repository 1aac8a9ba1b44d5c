/**
 * Messages typed while the agent was busy. They wait here (saved with the panel state) until an ask
 * opens or the task ends, then go out together; one can be edited or removed until then.
 */
import { useCallback, useState } from "react";
import { isStringArray, usePersistedState } from "../state/use-persisted-state";

export interface QueuedMessage {
  readonly id: string;
  readonly text: string;
  readonly images: readonly string[];
}

function isQueue(value: unknown): value is QueuedMessage[] {
  return (
    Array.isArray(value) &&
    value.every((item: Partial<QueuedMessage> | null) => typeof item?.id === "string" && typeof item.text === "string" && isStringArray(item.images))
  );
}

export interface MessageQueue {
  readonly items: readonly QueuedMessage[];
  /** The item being edited; delivery waits until the edit is saved or abandoned. */
  readonly editingId: string | undefined;
  enqueue(text: string, images: readonly string[]): void;
  update(id: string, text: string): void;
  remove(id: string): void;
  setEditing(id: string | undefined): void;
  /** Removes the given items (those just delivered). */
  take(ids: ReadonlySet<string>): void;
}

let counter = 0;

export function useMessageQueue(): MessageQueue {
  const [items, setItems] = usePersistedState<QueuedMessage[]>("queue", [], isQueue);
  const [editingId, setEditing] = useState<string | undefined>(undefined);
  const enqueue = useCallback(
    (text: string, images: readonly string[]) =>
      setItems((queue) => [...queue, { id: `${Date.now()}-${++counter}`, text, images: [...images] }]),
    [setItems],
  );
  const update = useCallback(
    (id: string, text: string) => setItems((queue) => queue.map((item) => (item.id === id ? { ...item, text } : item))),
    [setItems],
  );
  const remove = useCallback((id: string) => setItems((queue) => queue.filter((item) => item.id !== id)), [setItems]);
  const take = useCallback((ids: ReadonlySet<string>) => setItems((queue) => queue.filter((item) => !ids.has(item.id))), [setItems]);
  return { items, editingId, enqueue, update, remove, setEditing, take };
}

/** The queued messages as one message: texts separated by blank lines, images in order. */
export function combineQueued(items: readonly QueuedMessage[]): { text: string; images: string[] } {
  return {
    text: items.map((item) => item.text).filter((text) => text.length > 0).join("\n\n"),
    images: items.flatMap((item) => item.images),
  };
}
