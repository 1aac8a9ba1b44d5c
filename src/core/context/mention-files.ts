/**
 * `@/path` mentions: a file as read_file shows it (the same reader, so PDF, .docx and notebooks
 * come out as text and binary files are refused), a folder as its listing and its small text
 * files' contents (mention-folder.ts). The guard judges the path as named and where
 * it really lands, so a link to a secret file is refused like the file itself; a path that leads
 * out of the workspace is refused too.
 */
import { stat } from "node:fs/promises";
import { ignoredRefusal } from "../files/ignored-path";
import { resolveToolPath, type ResolvedToolPath } from "../files/paths";
import { readTarget } from "../files/read-text";
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { mentionBlock } from "./mention-block";
import { folderMentionBody } from "./mention-folder";
import type { WorkspaceRoots } from "../util/workspace-roots";

export interface FileMentionDeps {
  readonly roots: WorkspaceRoots;
  readonly guard: PathGuard;
  readonly signal: AbortSignal;
}

/** The block for `@/relative` (a file or a folder, whichever it is on disk). */
export async function pathMentionBlock(relative: string, deps: FileMentionDeps): Promise<string> {
  let target: ResolvedToolPath;
  try {
    target = await resolveToolPath(deps.roots, relative);
  } catch (error) {
    return mentionBlock("file_content", { path: relative }, notIncluded(errorText(error)));
  }
  const shown = target.relative;
  if (target.outsideWorkspace) {
    const how = target.real === target.absolute ? "is outside the workspace" : `leads through a symbolic link to ${target.real}, outside the workspace`;
    return mentionBlock("file_content", { path: shown }, notIncluded(`${shown} ${how}; mentions read workspace files only.`));
  }
  const stats = await stat(target.real).catch(() => undefined);
  if (!stats) return mentionBlock("file_content", { path: shown }, notIncluded(`there is no file or folder ${shown} in the workspace.`));
  const isFolder = stats.isDirectory();
  const tag = isFolder ? "folder_content" : "file_content";
  const attributes = { path: isFolder && shown !== "." ? `${shown}/` : shown };
  const refusal = ignoredRefusal(deps.guard, target, isFolder);
  if (refusal) return mentionBlock(tag, attributes, notIncluded(refusal.message));
  try {
    if (isFolder) return mentionBlock(tag, attributes, await folderMentionBody(target, deps));
    if (!stats.isFile()) return mentionBlock(tag, attributes, notIncluded(`${shown} is not a regular file.`));
    return mentionBlock(tag, attributes, await readTarget(target, { start: 1, end: Number.POSITIVE_INFINITY }, deps.signal));
  } catch (error) {
    if (deps.signal.aborted) throw error;
    return mentionBlock(tag, attributes, notIncluded(errorText(error)));
  }
}

export function notIncluded(reason: string): string {
  return `[Not included: ${reason}]`;
}
