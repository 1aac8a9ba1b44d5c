/**
 * What the Controller does with a task's checkpoints (the store is core/checkpoints, its API types.ts): compare one with the workspace, and restore the files, the task, or both.
 */
import type { ApiMessage } from "../../api/types";
import type { ChatMessage, CheckpointInfo } from "../../shared/messages";
import type { RestoredFiles } from "../../shared/checkpoints";

export { RESTORE_SCOPES, type CheckpointChange, type RestoreScope } from "../../shared/checkpoints";
export type { CheckpointService, TaskCheckpointStore } from "../checkpoints/types";

/** The checkpoint a row carries; a clear error when it carries none. */
export function checkpointOf(chat: readonly ChatMessage[], ts: number): CheckpointInfo {
  const checkpoint = chat.find((message) => message.ts === ts)?.checkpoint;
  if (!checkpoint) throw new Error("That step has no checkpoint to compare or restore.");
  return checkpoint;
}

/** What "restore task" keeps: the chat up to the checkpoint's row, the conversation up to its round's tool results. */
export function rewound(saved: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] }, ts: number): { chat: ChatMessage[]; api: ApiMessage[] } {
  const checkpoint = checkpointOf(saved.chat, ts);
  const index = saved.chat.findIndex((message) => message.ts === ts);
  return { chat: saved.chat.slice(0, index + 1), api: saved.api.slice(0, checkpoint.apiMessages) };
}

/** One sentence on what a restore of files did. */
export function describeRestore(files: RestoredFiles): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const done = files.written.length + files.deleted.length === 0 ? "The files were already as they were at that checkpoint" : `Restored ${count(files.written.length, "file")} and deleted ${count(files.deleted.length, "file")} added since`;
  const skipped = files.skipped.map((s) => `${s.path} (${s.reason})`).join(", ");
  return skipped ? `${done}; left alone: ${skipped}.` : `${done}.`;
}
