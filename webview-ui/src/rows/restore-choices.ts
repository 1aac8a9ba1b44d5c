/** The three ways back to a checkpoint, as Cline offers them, and what each one loses. */
import type { RestoreScope } from "../../../src/shared/checkpoints";

export const RESTORE_CHOICES: Record<RestoreScope, { readonly label: string; readonly help: string }> = {
  files: { label: "Restore files", help: "The workspace's files go back to this point; the chat stays." },
  task: { label: "Restore task only", help: "The chat and the conversation go back to this point; the files stay as they are." },
  both: { label: "Restore files & task", help: "The files, the chat and the conversation all go back to this point." },
};

/** Where a restore goes back to: a round's checkpoint, or the workspace as the task found it. */
export type CheckpointPoint = "checkpoint" | "taskStart";

/**
 * What the confirmation names as lost. Every scope loses something: the files changed since, the
 * later chat, or both; `laterMessages` is how many rows the chat has after the point.
 */
export function restoreWarning(scope: RestoreScope, point: CheckpointPoint, laterMessages: number): string {
  const since = point === "taskStart" ? "since the task started" : "since this checkpoint";
  const after = point === "taskStart" ? "after the task's prompt" : "after this checkpoint";
  const files = `Changes made to files ${since} will be lost.`;
  const chat = `The chat ${after} (${laterMessages} ${laterMessages === 1 ? "message" : "messages"}) will be removed, and the task goes on from there.`;
  if (scope === "files") return files;
  if (scope === "task") return chat;
  return `${files} ${chat}`;
}
