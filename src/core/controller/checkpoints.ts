/**
 * What the Controller needs of the checkpoint store (core/checkpoints) and what it does with a
 * task's checkpoints: compare one with the workspace, and restore the files, the task, or both.
 */
import type { ApiMessage } from "../../api/types";
import type { CheckpointChange, RestoredFiles } from "../../shared/checkpoints";
import type { ChatMessage, CheckpointInfo } from "../../shared/messages";
import type { CheckpointRepository } from "../task";

export { RESTORE_SCOPES, type CheckpointChange, type RestoreScope } from "../../shared/checkpoints";

export interface TaskCheckpointStore extends CheckpointRepository {
  /** Files that differ between checkpoint `from` and checkpoint `to`, or the workspace now. */
  changes(from: string, to?: string): Promise<CheckpointChange[]>;
  /** Puts the tracked files back as they were at `hash`; run again, it completes an interrupted restore. */
  restoreFiles(hash: string): Promise<RestoredFiles>;
  /** Deletes the task's checkpoints. */
  deleteTask(): Promise<void>;
}

/** The checkpoint store of the workspace, for the Controller (it outlives tasks). */
export interface CheckpointService {
  /** Why checkpoints cannot work here, as one sentence ("Checkpoints are off: git is not installed …"), or undefined when they can. */
  unavailable(): Promise<string | undefined>;
  forTask(taskId: string): Promise<TaskCheckpointStore>;
  /** Bytes on disk of the whole store (every workspace's shadow repository). */
  size(): Promise<number>;
  /** Deletes the whole store: every task's checkpoints. */
  clean(): Promise<void>;
}

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
