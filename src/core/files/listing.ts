/** How list_files (and a folder @-mention, and the first request's workspace listing) shows a walk. */
import * as path from "node:path";
import { oneLineName } from "../util/one-line-name";
import type { WalkResult } from "./walk";

/** How a path is shown to the model: `WorkspaceRoots.shown` (relative in the primary folder, `name/…` in another, absolute outside). */
export type ShowPath = (absolute: string) => string;

/** Entries list_files shows at most. */
export const LIST_FILES_LIMIT = 200;

/** Sorted paths (as `shown` writes them) and notes on what is missing. */
export function formatListing(shown: ShowPath, walk: WalkResult, limit = LIST_FILES_LIMIT): string {
  const lines = walk.entries.map(({ absolute, isFolder }) => oneLineName(`${shown(absolute)}${isFolder ? "/" : ""}`)).sort(byCodePoint);
  return withNotes(lines.length > 0 ? lines.join("\n") : "(no files found)", walk, limit);
}

/**
 * The same walk grouped by folder, one line each: the folder, then the names it holds (sub-folders
 * end with "/"; a name with spaces or quotes is quoted). The first request's listing: each path
 * once, where the flat form repeats every folder's path on each of its files.
 */
export function formatGroupedListing(shown: ShowPath, walk: WalkResult, limit = LIST_FILES_LIMIT): string {
  const folders = new Map<string, string[]>();
  for (const { absolute, isFolder } of walk.entries) {
    // The primary folder itself (".") sorts first, as "./".
    const parent = shown(path.dirname(absolute)).replace(/^\.$/, "");
    const name = oneLineName(path.basename(absolute), /[\s"']/);
    const names = folders.get(parent) ?? [];
    names.push(`${name}${isFolder ? "/" : ""}`);
    folders.set(parent, names);
  }
  const lines = [...folders.keys()].sort(byCodePoint).map((folder) => `${oneLineName(`${folder === "" ? "." : folder}/`)}: ${(folders.get(folder) ?? []).sort(byCodePoint).join(" ")}`);
  return withNotes(lines.length > 0 ? lines.join("\n") : "(no files found)", walk, limit);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withNotes(body: string, walk: WalkResult, limit: number): string {
  const notes: string[] = [];
  if (walk.truncated) {
    notes.push(`[Only the first ${limit} entries are shown; the listing goes breadth-first, so the upper levels come first. List a sub-folder to see more.]`);
  }
  if (walk.hiddenByIgnoreFile > 0) notes.push(`[${countOf(walk.hiddenByIgnoreFile, "entry", "entries")} hidden by .tandemignore.]`);
  if (walk.hiddenSecrets > 0) notes.push(`[${countOf(walk.hiddenSecrets, "file that looks like it holds secrets", "files that look like they hold secrets")} hidden.]`);
  if (walk.unreadable.length > 0) notes.push(`[Could not read: ${walk.unreadable.join("; ")}]`);
  return notes.length > 0 ? `${body}\n\n${notes.join("\n")}` : body;
}

function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
