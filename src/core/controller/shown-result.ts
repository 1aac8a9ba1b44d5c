/**
 * A task whose result is on screen is done: moving on from it (a new task, History, a reload)
 * accepts the result rather than cancelling the task. Its remaining questions (the suggested
 * command, then the result) are answered "no": skip, accept.
 */
import pWaitFor from "p-wait-for";
import type { AskResponse, ChatMessage } from "../../shared/messages";
import type { Task } from "../task";

/** The person's latest answer and the question (its row) it answered. */
export interface LastAnswer {
  readonly ts: number;
  readonly response: AskResponse;
}

/**
 * Answers the shown result's questions until the task finishes. False when no result is shown,
 * or when the task asks something else meanwhile (then the caller cancels it after all).
 */
export async function acceptShownResult(task: Task, lastAnswer: () => LastAnswer | undefined, answer: (questionId: number, response: AskResponse) => void): Promise<boolean> {
  if (!showsResult(task, lastAnswer())) return false;
  while (!task.isFinished) {
    const question = task.openQuestion;
    if (question) {
      if (!showsResult(task, lastAnswer())) return false;
      answer(question.id, { type: "no" });
    }
    // The next question opens, or the task ends, a few microtasks later.
    await pWaitFor(() => task.openQuestion !== undefined || task.isFinished, { interval: 5 });
  }
  return true;
}

/** The result is accepted and the task finishing, or it is on screen, waiting for the person or just answered without a reply. */
function showsResult(task: Task, answered: LastAnswer | undefined): boolean {
  const end = task.state.taskEnd;
  if (end) return end.kind === "completed";
  const open = task.openQuestion;
  if (open) return isResultQuestion(task.messages.find(open.id));
  const last = task.messages.chatMessages.at(-1);
  if (!answered || !isResultQuestion(last) || answered.ts !== last?.ts) return false;
  return !answered.response.text?.trim() && !answered.response.images?.length;
}

/** The result's question, or the question whether to run the command it suggests. */
function isResultQuestion(message: ChatMessage | undefined): boolean {
  return message?.type === "ask" && (message.ask === "completion_result" || (message.ask === "command" && message.tool?.tool === "attempt_completion"));
}
