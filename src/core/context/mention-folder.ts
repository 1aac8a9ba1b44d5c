/**
 * What a folder mention (`@/src/`) brings, as Cline's does: the folder's listing (one level, as
 * list_files shows it) and then the contents of its small text files, each as a file mention
 * shows it, within a budget: a file over FOLDER_FILE_MAX_BYTES, files past FOLDER_TOTAL_MAX_BYTES
 * together or past FOLDER_MAX_FILES, binary files and documents are named in a note instead, and
 * sub-folders are listed, not read. Ignored and secret files never: the walk leaves them out
 * through the guard, and each file read is judged again as the tools judge it (ignoredRefusal on
 * the path and where a link lands; a link out of the workspace is refused). VCS data (.git) is not
 * even listed.
 */
import { stat } from "node:fs/promises";
import { documentKind } from "../files/documents";
import { ignoredRefusal } from "../files/ignored-path";
import { formatListing, LIST_FILES_LIMIT } from "../files/listing";
import { resolveToolPath, type ResolvedToolPath } from "../files/paths";
import { readTarget } from "../files/read-text";
import { ToolError } from "../files/tool-error";
import { walkFolder } from "../files/walk";
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { oneLineName } from "../util/one-line-name";
import { mentionBlock } from "./mention-block";
import type { WorkspaceRoots } from "../util/workspace-roots";

/** A file bigger than this is listed, not read: a folder mention is for the small files around a task. */
export const FOLDER_FILE_MAX_BYTES = 32 * 1024;
/** All the files one folder mention reads together, at most. */
export const FOLDER_TOTAL_MAX_BYTES = 128 * 1024;
/** Files read for one folder mention, at most. */
export const FOLDER_MAX_FILES = 30;

export interface FolderMentionDeps {
  readonly roots: WorkspaceRoots;
  readonly guard: PathGuard;
  readonly signal: AbortSignal;
}

interface LeftOut {
  /** Why, shared by every file left out for it ("binary files"). */
  readonly why: string;
  /** What to add after the file's path, e.g. its size. */
  readonly detail?: string;
}

/** The body of `<folder_content>`: the listing, the files read, and a note naming what was left out. */
export async function folderMentionBody(folder: ResolvedToolPath, deps: FolderMentionDeps): Promise<string> {
  const walk = await walkFolder({ cwd: deps.roots.baseOf(folder.absolute), start: folder.absolute, recursive: false, limit: LIST_FILES_LIMIT, guard: deps.guard, signal: deps.signal, omitVcs: true });
  const shown = (absolute: string) => deps.roots.shown(absolute);
  const parts = [formatListing(shown, walk)];
  // As shown, which resolves back to the same file (paths.ts).
  const files = walk.entries
    .filter((entry) => !entry.isFolder)
    .map((entry) => shown(entry.absolute))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const leftOut: (LeftOut & { readonly path: string })[] = [];
  let bytes = 0;
  let read = 0;
  for (const relative of files) {
    deps.signal.throwIfAborted();
    const outcome = await readSmallFile(relative, deps, { bytes, read });
    // Hidden by the guard: the listing's note counts it; its name is not repeated.
    if (outcome.kind === "hidden") continue;
    if (outcome.kind === "left_out") {
      leftOut.push({ path: relative, ...outcome.leftOut });
      continue;
    }
    parts.push(mentionBlock("file_content", { path: relative }, outcome.text));
    bytes += outcome.size;
    read++;
  }
  if (leftOut.length > 0) parts.push(leftOutNote(leftOut));
  if (walk.entries.some((entry) => entry.isFolder)) parts.push("[Sub-folders are listed, not read: mention one to read its files.]");
  return parts.join("\n\n");
}

type Outcome =
  | { readonly kind: "read"; readonly text: string; readonly size: number }
  | { readonly kind: "left_out"; readonly leftOut: LeftOut }
  | { readonly kind: "hidden" };

const out = (why: string, detail?: string): Outcome => ({ kind: "left_out", leftOut: detail === undefined ? { why } : { why, detail } });

/** One file of the folder, read when it fits what is left of the budget. */
async function readSmallFile(relative: string, deps: FolderMentionDeps, used: { bytes: number; read: number }): Promise<Outcome> {
  const target = await resolveToolPath(deps.roots, relative);
  if (target.outsideWorkspace) return out("links out of the workspace");
  if (ignoredRefusal(deps.guard, target)) return { kind: "hidden" };
  if (documentKind(target.real) !== undefined) return out("documents (PDF, Word, notebooks)");
  const stats = await stat(target.real).catch(() => undefined);
  if (!stats?.isFile()) return out("not regular files");
  if (stats.size > FOLDER_FILE_MAX_BYTES) return out(`larger than ${kilobytes(FOLDER_FILE_MAX_BYTES)}`, kilobytes(stats.size));
  if (used.read >= FOLDER_MAX_FILES) return out(`past the ${FOLDER_MAX_FILES} files a folder mention reads`);
  if (used.bytes + stats.size > FOLDER_TOTAL_MAX_BYTES) return out(`past the ${kilobytes(FOLDER_TOTAL_MAX_BYTES)} a folder mention reads`, kilobytes(stats.size));
  try {
    return { kind: "read", text: await readTarget(target, { start: 1, end: Number.POSITIVE_INFINITY }, deps.signal), size: stats.size };
  } catch (error) {
    if (deps.signal.aborted) throw error;
    // readTarget refuses binary files with a ToolError; anything else is said as it is.
    if (error instanceof ToolError && /binary/.test(error.message)) return out("binary files");
    return out("unreadable", errorText(error));
  }
}

/** One line per reason, so a big folder's note stays short. */
function leftOutNote(leftOut: readonly (LeftOut & { readonly path: string })[]): string {
  const byReason = new Map<string, string[]>();
  for (const { path: p, why, detail } of leftOut) byReason.set(why, [...(byReason.get(why) ?? []), detail === undefined ? oneLineName(p) : `${oneLineName(p)} (${detail})`]);
  const lines = [...byReason].map(([why, paths]) => `- ${why}: ${paths.join(", ")}`);
  return `[Not read from this folder (mention a file on its own to read it):\n${lines.join("\n")}]`;
}

function kilobytes(size: number): string {
  return `${Math.ceil(size / 1024)} KB`;
}
