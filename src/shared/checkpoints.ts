/** Checkpoint shapes shared by the core, the hosts and the webview. */
import type { ChatMessage } from "./messages";

/** One file that differs between a checkpoint and the workspace now, with the checkpoint's side. */
export interface CheckpointChange {
  /** As the model writes it, with forward slashes: relative in the primary workspace folder, `name/…` in another. */
  readonly path: string;
  /** Where the file is; absent: `path` is relative to the primary workspace folder. */
  readonly absolute?: string;
  readonly status: "added" | "modified" | "deleted";
  /** The file at the checkpoint; undefined when it did not exist then, or is not text. */
  readonly before?: string;
  /** The file now; undefined when it is gone, or is not text. */
  readonly after?: string;
  /** Either side is not text (its content is then undefined). */
  readonly binary?: boolean;
}

/** What a restore of files did, paths as CheckpointChange names them. */
export interface RestoredFiles {
  readonly written: readonly string[];
  readonly deleted: readonly string[];
  /** Left alone, and why (e.g. a folder now stands where the file was). */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/** `files`: the workspace only; `task`: the chat and the model's conversation only; `both`. */
export type RestoreScope = "files" | "task" | "both";

export const RESTORE_SCOPES: readonly RestoreScope[] = ["files", "task", "both"];

/**
 * A checkpoint's number as the panel and the CLI count them: 0 is the workspace as the task found
 * it (its first row), then 1, 2, … each round that changed files. Undefined when row `ts` carries none.
 */
export function checkpointNumber(chat: readonly ChatMessage[], ts: number): number | undefined {
  let number = 0;
  for (const [index, message] of chat.entries()) {
    if (index > 0 && message.checkpoint) number++;
    if (message.ts === ts) return message.checkpoint ? number : undefined;
  }
  return undefined;
}

/** A checkpoint's name for people: "Task start" for number 0, else "Checkpoint N". */
export function checkpointName(number: number): string {
  return number === 0 ? "Task start" : `Checkpoint ${number}`;
}
