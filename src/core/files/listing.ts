/** How list_files (and a folder @-mention, and the first request's workspace listing) shows a walk. */
import * as path from "node:path";
import { isWithin } from "../util/real-paths";
import type { WalkResult } from "./walk";

/** Entries list_files shows at most. */
export const LIST_FILES_LIMIT = 200;

/** Sorted paths (relative to the workspace, absolute outside it) and notes on what is missing (the environment details' listing too). */
export function formatListing(cwd: string, walk: WalkResult, limit = LIST_FILES_LIMIT): string {
  const lines = walk.entries
    .map(({ absolute, isFolder }) => {
      const shown = isWithin(cwd, absolute) ? path.relative(cwd, absolute).split(path.sep).join("/") : absolute;
      return isFolder ? `${shown}/` : shown;
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const notes: string[] = [];
  if (walk.truncated) {
    notes.push(`[Only the first ${limit} entries are shown; the listing goes breadth-first, so the upper levels come first. List a sub-folder to see more.]`);
  }
  if (walk.hiddenByIgnoreFile > 0) notes.push(`[${countOf(walk.hiddenByIgnoreFile, "entry", "entries")} hidden by .tandemignore.]`);
  if (walk.hiddenSecrets > 0) notes.push(`[${countOf(walk.hiddenSecrets, "file that looks like it holds secrets", "files that look like they hold secrets")} hidden.]`);
  if (walk.unreadable.length > 0) notes.push(`[Could not read: ${walk.unreadable.join("; ")}]`);
  const body = lines.length > 0 ? lines.join("\n") : "(no files found)";
  return notes.length > 0 ? `${body}\n\n${notes.join("\n")}` : body;
}

function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
