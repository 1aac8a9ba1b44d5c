/**
 * What deserves a notification, for one task: the rules, apart from the moments that bring them.
 * - A question that waits for the person, once (its row is shown once), except a running
 *   command's (the command's end answers it) and a resumption's.
 * - Nothing before the work begins: a task reopened from History asks whether to go on (or shows
 *   its result again) while the person is looking at it.
 * - A result, once: at its first question (the command it offers to run, else accept or reply),
 *   as the task's end, "completed" (the person may still reply and go on). A task that completes
 *   without a result being announced (a plan taken as it is) is announced as it ends; a hand-over
 *   to a new task is not (the next task goes on).
 * - A stop (failed, the mistake limit, a spending cap) as the task ends; a cancel never.
 */
import type { AskMessage, ChatMessage } from "../../../shared/messages";
import type { Notice } from "../../../shared/notice";
import type { TaskOutcome } from "../../task/round-outcome";
import { endWords, lastResult, questionWords, resultWords, taskWords } from "./notice-text";

export class TaskAttention {
  private working = false;
  /** The result announced last (its row's timestamp): its other questions are not news. */
  private announcedResult: number | undefined;

  constructor(private readonly taskId: string) {}

  /** The work began: a new task's first request, or a reopened one the person chose to go on with. */
  workBegan(): void {
    this.working = true;
  }

  /** A question's row is shown; `chat` is the task's chat as it is now. */
  question(row: AskMessage, chat: readonly ChatMessage[]): Notice | undefined {
    if (!this.working) return undefined;
    const offered = row.ask === "command" && row.tool?.tool === "attempt_completion";
    if (offered || row.ask === "completion_result") return this.result(row, chat, offered);
    const message = questionWords(row);
    return message === undefined ? undefined : this.notice("question", row.ask, message, chat, row.ts);
  }

  /** The task ended with `outcome`; `handedOff`: it ended by handing over to a new task. */
  ended(outcome: TaskOutcome, chat: readonly ChatMessage[], handedOff: boolean): Notice | undefined {
    if (!this.working || outcome === "aborted") return undefined;
    if (outcome !== "completed") return this.notice("taskEnded", outcome, endWords(outcome, chat), chat);
    const result = lastResult(chat);
    if (handedOff || (result !== undefined && result.ts === this.announcedResult)) return undefined;
    return this.notice("taskEnded", "completed", resultWords(chat), chat);
  }

  private result(row: AskMessage, chat: readonly ChatMessage[], offered: boolean): Notice | undefined {
    const result = lastResult(chat)?.ts ?? row.ts;
    if (result === this.announcedResult) return undefined;
    this.announcedResult = result;
    return this.notice("taskEnded", "completed", resultWords(chat, offered ? row : undefined), chat, row.ts);
  }

  private notice(event: Notice["event"], kind: Notice["kind"], message: string, chat: readonly ChatMessage[], questionId?: number): Notice {
    return { event, kind, message, task: taskWords(chat), taskId: this.taskId, ...(questionId !== undefined ? { questionId } : {}) };
  }
}
