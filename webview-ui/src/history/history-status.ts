/** How History and the start screen name a saved task's status, and which tasks the start screen offers. */
import { inScope } from "../../../src/shared/history-view";
import type { HistoryItem, TaskStatus } from "../../../src/shared/protocol";

export const STATUS_LABELS: Record<TaskStatus, string> = {
  running: "Running",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
};

/** A task the index still calls running, other than the open one, was interrupted: its host went away. */
export function shownStatus(item: HistoryItem, isOpen: boolean): TaskStatus | undefined {
  return item.status === "running" && !isOpen ? "interrupted" : item.status;
}

/** The `count` most recently started tasks of the workspace `root`, as History's own scope says (shared/history-view.ts). */
export function recentTasks(history: readonly HistoryItem[], root: string, count = 3): HistoryItem[] {
  return history
    .filter((item) => inScope(item, "workspace", root))
    .toSorted((a, b) => b.startedAt - a.startedAt)
    .slice(0, count);
}
