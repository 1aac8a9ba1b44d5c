/**
 * Keeps the History index in step with the tasks: each task's prompt and start when it opens,
 * running when a request starts, its totals as each request ends (summed as the task header sums
 * them), completed once its result is shown (so leaving it, or a crash, finds it so), and its
 * status when it ends. Every change is told (onDidChangeHistoryItem).
 */
import type { ChatMessage } from "../../shared/messages";
import type { HistoryItem, TaskStatus, TaskSummary } from "../../shared/protocol";
import { sumUsage } from "../../shared/usage";
import type { TaskHistory } from "../storage/task-history";
import type { TaskOutcome } from "../task";
import type { AbortReason } from "../task/task-state";

export class HistoryFollower {
  constructor(
    private readonly history: TaskHistory | undefined,
    private readonly changed: (item: HistoryItem) => void,
  ) {}

  /** The task's entry as it stands: its prompt, totals and status. */
  async record(summary: TaskSummary, chat: readonly ChatMessage[], status: TaskStatus): Promise<void> {
    if (!this.history) return;
    const item = { ...summary, usage: sumUsage(chat), status };
    await this.history.upsert(item);
    this.changed(item);
  }

  /** A message of task `taskId` was added or updated; `chat` is its chat now (undefined once it is no longer current). */
  follow(taskId: string, chat: readonly ChatMessage[] | undefined, message: ChatMessage, added: boolean): void {
    const change = historyChange(message, added);
    if (!change || !this.history || !chat) return;
    void this.history.amend(taskId, { ...change, usage: sumUsage(chat) }).then((item) => item && this.changed(item));
  }
}

/** The status a finished task is saved with. */
export function statusOf(outcome: TaskOutcome, abortReason: AbortReason | undefined): TaskStatus {
  if (outcome === "aborted") return abortReason === "shutdown" ? "interrupted" : "cancelled";
  return outcome === "mistake_limit" ? "failed" : outcome;
}

/** What a chat message changes in the History entry beyond its totals; undefined when nothing. */
function historyChange(message: ChatMessage, added: boolean): { status?: TaskStatus } | undefined {
  if (message.type === "ask") return added && message.ask === "completion_result" ? { status: "completed" } : undefined;
  if (message.say !== "api_req_started") return undefined;
  if (added) return { status: "running" };
  // A request just ended: its usage is all in.
  return message.apiRequest?.outcome === undefined ? undefined : {};
}
