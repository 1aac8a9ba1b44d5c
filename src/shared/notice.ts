/**
 * A notification: the person's attention is wanted, because a question waits for them or the task
 * ended. The core decides when and says it in words (core/participants/notifications/); each host
 * shows it its own way: VS Code's notification while its window is not focused, the CLI's bell
 * and `--notify` command, the Notification hook's stdin.
 */
import type { AskKind } from "./messages";

/** How a task ended, as far as it deserves a notification (a cancel never does: the person did it). */
export type NoticeEnd = "completed" | "failed" | "mistake_limit" | "spend_limit";

export interface Notice {
  /** `question`: a question waits for an answer; `taskEnded`: the work ended (a result waits to be accepted, or the task stopped). */
  readonly event: "question" | "taskEnded";
  /** The question's kind, or how the task ended. */
  readonly kind: AskKind | NoticeEnd;
  /** What is wanted or what happened, in one line: "Tandem wants to run `npm test`". */
  readonly message: string;
  /** The task as the person gave it: its first line, shortened. */
  readonly task: string;
  readonly taskId: string;
  /** The open question this is about (the timestamp of its row), so "Show" can take the person to it. */
  readonly questionId?: number;
}

/** The one line a notification shows: what is wanted, then which task. */
export function noticeText(notice: Notice): string {
  return notice.task ? `${notice.message} — task: ${notice.task}` : notice.message;
}
