import type { ApiMessage } from "../../api/types";

export interface TruncationResult {
  history: ApiMessage[];
  /** How many messages were dropped. */
  removed: number;
}

/**
 * Shortens a conversation that no longer fits the model's context window.
 *
 * The first message (the task) is kept, and so is the last (the request being retried).
 * Messages are dropped from index 1 in whole assistant+user pairs: an assistant message and
 * the user message after it go together, so a native tool_use is never separated from its
 * tool_result and roles keep alternating. `fraction` is the share of the droppable middle to
 * remove, rounded down to whole pairs (at least one pair when any can go).
 */
export function truncateConversation(history: readonly ApiMessage[], fraction = 0.5): TruncationResult {
  const droppable = history.length - 2; // everything but the first and the last message
  const pairsAvailable = Math.floor(Math.max(0, droppable) / 2);
  if (pairsAvailable === 0) return { history: [...history], removed: 0 };
  const pairs = Math.min(pairsAvailable, Math.max(1, Math.floor((droppable * fraction) / 2)));
  const removed = pairs * 2;
  return { history: [history[0] as ApiMessage, ...history.slice(1 + removed)], removed };
}
