/**
 * Keeps the History index in step with the tasks: each task's prompt and start when it opens,
 * running when a request starts, its totals as each request ends (summed as the task header sums
 * them), completed once its result is shown (so leaving it, or a crash, finds it so), and its
 * status when it ends; each entry names the workspace it ran in. Every change is told
 * (onDidChangeHistoryItem). As each request ends (and when the task ends) the task's searchable
 * digest is made again from its chat (core/history/task-digests.ts).
 */
import type { ChatMessage } from "../../shared/messages";
import type { HistoryItem, TaskStatus, TaskSummary } from "../../shared/protocol";
import { sumUsage } from "../../shared/usage";
import type { TaskDigests } from "../history/task-digests";
import type { TaskHistory } from "../storage/task-history";
import type { TaskOutcome } from "../task";
import type { AbortReason } from "../task/task-state";

export interface HistoryFollowerOptions {
  history: TaskHistory | undefined;
  /** The tasks' searchable digests; none: History searches the tasks' text only. */
  digests?: TaskDigests;
  changed(item: HistoryItem): void;
  /** The workspace root the tasks run in (History's and the start screen's lists are per workspace). */
  workspace: string;
}

export class HistoryFollower {
  constructor(private readonly options: HistoryFollowerOptions) {}

  /** The task's entry as it stands: its prompt, totals, status and workspace. */
  async record(summary: TaskSummary, chat: readonly ChatMessage[], status: TaskStatus): Promise<void> {
    const { history, digests } = this.options;
    if (!history) return;
    const item = { ...summary, usage: sumUsage(chat), status, workspace: this.options.workspace };
    // A new task has said nothing yet: its digest comes with its first request's end.
    if (chat.length > 0) digests?.update(summary.id, chat);
    await history.upsert(item);
    // The index keeps what the follower does not know of (the star).
    this.options.changed((await history.get(summary.id)) ?? item);
  }

  /** A message of task `taskId` was added or updated; `chat` is its chat now (undefined once it is no longer current). */
  follow(taskId: string, chat: readonly ChatMessage[] | undefined, message: ChatMessage, added: boolean): void {
    const change = historyChange(message, added);
    const { history, digests } = this.options;
    if (!change || !history || !chat) return;
    // A request's end, or the result shown: the words of the round are all in.
    if (change.status !== "running") digests?.update(taskId, chat);
    void history.amend(taskId, { ...change, usage: sumUsage(chat) }).then((item) => item && this.options.changed(item));
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
  return outcome === "mistake_limit" || outcome === "spend_limit" ? "failed" : outcome;
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
