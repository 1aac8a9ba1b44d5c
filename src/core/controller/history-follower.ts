/**
 * Keeps the History index in step with the tasks: each task's prompt and start when it opens,
 * running when a request starts, its totals as each request ends (summed as the task header sums
 * them), completed once its result is shown (so leaving it, or a crash, finds it so), and its
 * status when it ends; each entry names the workspace it ran in. Every change is told
 * (onDidChangeHistoryItem).
 */
import type { ChatMessage } from "../../shared/messages";
import type { HistoryItem, TaskStatus, TaskSummary } from "../../shared/protocol";
import { sumUsage } from "../../shared/usage";
import type { TaskHistory } from "../storage/task-history";
import type { TaskOutcome } from "../task";
import type { AbortReason } from "../task/task-state";

export class HistoryFollower {
  /** @param workspace  the workspace root the tasks run in (the start screen lists its recent tasks) */
  constructor(
    private readonly history: TaskHistory | undefined,
    private readonly changed: (item: HistoryItem) => void,
    private readonly workspace: string,
  ) {}

  /** The task's entry as it stands: its prompt, totals, status and workspace. */
  async record(summary: TaskSummary, chat: readonly ChatMessage[], status: TaskStatus): Promise<void> {
    if (!this.history) return;
    const item = { ...summary, usage: sumUsage(chat), status, workspace: this.workspace };
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

/**
 * The status a finished task is saved with. A task stopped while it asked whether to go on after
 * failing (a request that failed after its retries, the mistake limit) failed: leaving it by
 * "Start New Task", a new task or History is not a cancel of working one.
 */
export function statusOf(outcome: TaskOutcome, abortReason: AbortReason | undefined, chat: readonly ChatMessage[]): TaskStatus {
  if (outcome === "aborted") {
    if (abortReason === "shutdown") return "interrupted";
    return stoppedAfterFailure(chat) ? "failed" : "cancelled";
  }
  return outcome === "mistake_limit" ? "failed" : outcome;
}

/** The last question was a failure's "retry or stop?" (or "proceed or stop?"), and it was not answered by going on. */
function stoppedAfterFailure(chat: readonly ChatMessage[]): boolean {
  const last = chat.findLast((message) => message.type === "ask");
  if (last?.type !== "ask" || (last.ask !== "api_req_failed" && last.ask !== "mistake_limit_reached")) return false;
  return last.outcome === undefined || last.outcome === "no" || last.outcome === "cancelled";
}

/** What a chat message changes in the History entry beyond its totals; undefined when nothing. */
function historyChange(message: ChatMessage, added: boolean): { status?: TaskStatus } | undefined {
  if (message.type === "ask") return added && message.ask === "completion_result" ? { status: "completed" } : undefined;
  if (message.say !== "api_req_started") return undefined;
  if (added) return { status: "running" };
  // A request just ended: its usage is all in.
  return message.apiRequest?.outcome === undefined ? undefined : {};
}
