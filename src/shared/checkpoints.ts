/** Checkpoint shapes shared by the core, the hosts and the webview. */

/** One file that differs between a checkpoint and the workspace now, with the checkpoint's side. */
export interface CheckpointChange {
  /** Relative to the workspace folder, with forward slashes. */
  readonly path: string;
  readonly status: "added" | "modified" | "deleted";
  /** The file at the checkpoint; undefined when it did not exist then, or is not text. */
  readonly before?: string;
  /** The file now; undefined when it is gone, or is not text. */
  readonly after?: string;
  /** Either side is not text (its content is then undefined). */
  readonly binary?: boolean;
}

/** What a restore of files did, relative to the workspace. */
export interface RestoredFiles {
  readonly written: readonly string[];
  readonly deleted: readonly string[];
  /** Left alone, and why (e.g. a folder now stands where the file was). */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/** `files`: the workspace only; `task`: the chat and the model's conversation only; `both`. */
export type RestoreScope = "files" | "task" | "both";

export const RESTORE_SCOPES: readonly RestoreScope[] = ["files", "task", "both"];
