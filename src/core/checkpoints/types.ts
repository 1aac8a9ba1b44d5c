/** What the rest of Tandem uses of the checkpoint store: the Controller's service, a task's store, the loop's view of it. */
import type { CheckpointChange, RestoredFiles } from "../../shared/checkpoints";

/** A task's view of the checkpoint store (core/checkpoints): its commits of the workspace. */
export interface CheckpointRepository {
  /** The workspace as the task found it (a resumed task: its existing first checkpoint). */
  initialize(): Promise<string>;
  /** The workspace now; `changed` false (and no new commit) when nothing changed since the last. */
  save(label: string): Promise<{ hash: string; changed: boolean }>;
  /** The paths that differ from checkpoint `from` to the workspace now, without their contents (the task ledger's "changed otherwise"). */
  changedPaths(from: string): Promise<string[]>;
}

export interface TaskCheckpointStore extends CheckpointRepository {
  /** Files that differ between checkpoint `from` and checkpoint `to`, or the workspace now. */
  changes(from: string, to?: string): Promise<CheckpointChange[]>;
  /** Puts the tracked files back as they were at `hash`; run again, it completes an interrupted restore. */
  restoreFiles(hash: string): Promise<RestoredFiles>;
  /** Deletes the task's checkpoints, and those of `alsoTaskIds` with them (one step for many). */
  deleteTask(alsoTaskIds?: readonly string[]): Promise<void>;
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
