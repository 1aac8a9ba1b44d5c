/**
 * The workspace's files for the first request's environment details: list_files' own
 * breadth-first walk (honouring .gitignore, the ignore files and secret names, never entering
 * node_modules or .git), cut at WORKSPACE_LISTING_LIMIT entries with a note of what was left out.
 * A workspace that is the home folder or the disk's root is not walked at all. Never throws: a
 * failure is said in the listing's place.
 */
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { formatListing } from "../files/listing";
import { walkFolder } from "../files/walk";
import { errorText } from "../util/error-text";

/** About 1.5–3k tokens for a typical tree: the top levels, enough to know where things are. */
export const WORKSPACE_LISTING_LIMIT = 200;

export async function workspaceListing(root: string, guard: PathGuard, signal: AbortSignal, limit = WORKSPACE_LISTING_LIMIT): Promise<string> {
  try {
    const real = await realpath(root);
    const home = await realpath(homedir()).catch(() => homedir());
    if (real === home || real === path.parse(real).root) {
      return `(Not listed: the workspace is ${real === home ? "the home folder" : "the file system root"}. Use list_files on the folders that matter.)`;
    }
    const walk = await walkFolder({ cwd: root, start: root, recursive: true, limit, guard, signal });
    return formatListing(root, walk, limit);
  } catch (error) {
    // Cancelled mid-walk: the loop sees the abort next; this listing is never sent.
    if (signal.aborted) return "(Not listed: the task was cancelled.)";
    return `(The workspace could not be listed: ${errorText(error)}.)`;
  }
}
