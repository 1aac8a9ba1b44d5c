/**
 * What each side of a checkpoint's diff shows, decided without the editor (tested in plain Node):
 * the left side is always the checkpoint's text (empty for a file added since), the right side the
 * real file, or an empty text for a file deleted since. A file that is not text on a side that
 * exists (the store sends no text for it) is left out and named instead of shown as garbage.
 */
import type { CheckpointChange } from "../../shared/checkpoints";

export interface CheckpointDiffEntry {
  /** As CheckpointChange names it: relative in the primary folder, `name/…` in another. */
  readonly path: string;
  /** Where the file is; absent: `path` is relative to the primary folder. */
  readonly absolute?: string;
  /** The file at the checkpoint; "" when it did not exist then. */
  readonly before: string;
  /** The file now: the real one on disk, or none (deleted since, shown as an empty text). */
  readonly right: "file" | "deleted";
}

export interface CheckpointDiffPlan {
  readonly entries: readonly CheckpointDiffEntry[];
  /** Files that differ but are not text (on either side), by path. */
  readonly binary: readonly string[];
}

export function planCheckpointDiff(changes: readonly CheckpointChange[]): CheckpointDiffPlan {
  const entries: CheckpointDiffEntry[] = [];
  const binary: string[] = [];
  for (const change of changes) {
    if (isBinary(change)) binary.push(change.path);
    else entries.push({ path: change.path, ...(change.absolute ? { absolute: change.absolute } : {}), before: change.before ?? "", right: change.status === "deleted" ? "deleted" : "file" });
  }
  return { entries, binary };
}

/** A side that exists but came without text: the store found it not to be text. */
function isBinary({ status, before, after }: CheckpointChange): boolean {
  const beforeMissing = status !== "added" && before === undefined;
  const afterMissing = status !== "deleted" && after === undefined;
  return beforeMissing || afterMissing;
}

/** The note for files left out of the diff; undefined when none were. */
export function binaryNote(binary: readonly string[], shown: number): string | undefined {
  if (binary.length === 0) return undefined;
  const names = binary.slice(0, 5).join(", ") + (binary.length > 5 ? ` and ${binary.length - 5} more` : "");
  const files = binary.length === 1 ? "1 file that is not text differs" : `${binary.length} files that are not text differ`;
  return shown > 0 ? `${files} too, not shown in the diff: ${names}.` : `${files} from that checkpoint, which a diff cannot show: ${names}.`;
}
