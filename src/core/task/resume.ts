/**
 * Opening a saved task again (Task.resumeTask): its chat as it was left, with nothing still
 * streaming or spinning, and whether it had ended with its result shown, in which case it opens as
 * completed (its result waiting for a reply or a new task), not as interrupted.
 */
import type { ChatMessage } from "../../shared/messages";

export interface ReopenedChat {
  readonly chat: ChatMessage[];
  readonly completed: boolean;
}

/** `completed`: the History index says the task completed. A chat that ends on its result's question did too (its host died there). */
export function reopenChat(saved: readonly ChatMessage[], completed: boolean): ReopenedChat {
  const last = saved.at(-1);
  const endsOnResult = last?.type === "ask" && last.ask === "completion_result";
  const done = completed || endsOnResult;
  // The question that ended the chat is asked again, so it is not shown twice.
  const reasked = last?.type === "ask" && (last.ask === "resume_task" || (done && last.ask === "completion_result"));
  const kept = reasked ? saved.slice(0, -1) : saved;
  return { chat: kept.map(settled), completed: done };
}

/** A message as it stands now that nothing of the earlier run is going on any more. */
function settled(message: ChatMessage): ChatMessage {
  const copy = { ...message, partial: false };
  if (copy.apiRequest && copy.apiRequest.outcome === undefined) copy.apiRequest = { ...copy.apiRequest, outcome: "cancelled" };
  if (copy.retry && copy.retry.outcome === undefined) copy.retry = { ...copy.retry, outcome: "cancelled" };
  return copy;
}

