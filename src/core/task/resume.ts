/**
 * Opening a saved task again (Task.resumeTask): its chat as it was left, with nothing still
 * streaming or spinning, and whether it had ended with its result shown, in which case it opens as
 * completed (its result waiting for a reply or a new task), not as interrupted.
 */
import type { ContentBlock } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { formatResponse } from "../prompts/responses";
import { imageBlockFromDataUrl } from "../util/image-block";
import type { TaskScope } from "./task-scope";
import type { TaskOutcome } from "./round-outcome";

export interface ReopenedChat {
  readonly chat: ChatMessage[];
  readonly completed: boolean;
  /** It ended on a plan the person approved (Plan mode's end), not on a result. */
  readonly endedOnPlan?: boolean;
  /** Taken back to a checkpoint ("restore task"), with or without its files. */
  readonly restored?: { readonly files: boolean };
}

/** `completed`: the History index says the task completed. A chat that ends on its result's question did too (its host died there). */
export function reopenChat(saved: readonly ChatMessage[], completed: boolean, restored?: ReopenedChat["restored"]): ReopenedChat {
  if (restored) return { chat: saved.map(settled), completed: false, restored };
  const last = saved.at(-1);
  const endsOnResult = last?.type === "ask" && last.ask === "completion_result";
  const done = completed || endsOnResult;
  // The question that ended the chat is asked again, so it is not shown twice.
  const reasked = last?.type === "ask" && (last.ask === "resume_task" || (done && last.ask === "completion_result"));
  const kept = reasked ? saved.slice(0, -1) : saved;
  const endedOnPlan = done && saved.findLast((row) => row.type === "ask")?.ask === "plan_mode_respond";
  return { chat: kept.map(settled), completed: done, ...(endedOnPlan ? { endedOnPlan } : {}) };
}

/**
 * Asks whether to go on: an interrupted task whether to resume; a completed one shows its result
 * again, and only a reply continues the work. Returns what the loop goes on with, or how the
 * task ends here (nobody resumed it).
 */
export async function askToGoOn(reopened: ReopenedChat, talk: TaskScope): Promise<ContentBlock[] | TaskOutcome> {
  const question = reopened.restored ? "The task was taken back to this checkpoint. Resume it from here?" : "This task was interrupted. Resume it?";
  const answer = reopened.completed ? await talk.ask("completion_result", "") : await talk.ask("resume_task", question);
  const replied = Boolean(answer.text?.trim() || answer.images?.length);
  if (talk.state.abort || (answer.type === "no" && !replied) || (reopened.completed && !replied)) return reopened.completed ? "completed" : "aborted";
  if (replied) await talk.say("user_feedback", answer.text, { images: answer.images });
  const reply = await talk.forModel(answer.text);
  const note = reopened.endedOnPlan
    ? formatResponse.approvedPlanReply(talk.mode.current, reply ?? "")
    : reopened.completed
      ? formatResponse.completedTaskReply(reply ?? "")
    : reopened.restored
      ? formatResponse.taskRestored(reopened.restored.files, reply)
      : formatResponse.taskResumption(reply);
  // A conversation that ended on the user's side (tool results) takes this into that message.
  return [{ type: "text", text: note }, ...(answer.images ?? []).map(imageBlockFromDataUrl)];
}

/** A message as it stands now that nothing of the earlier run is going on any more. */
function settled(message: ChatMessage): ChatMessage {
  const copy = { ...message, partial: false };
  if (copy.apiRequest && copy.apiRequest.outcome === undefined) copy.apiRequest = { ...copy.apiRequest, outcome: "cancelled" };
  if (copy.retry && copy.retry.outcome === undefined) copy.retry = { ...copy.retry, outcome: "cancelled" };
  return copy;
}

