/**
 * The workspace's files for the first request's environment details, grouped by folder: list_files' own
 * breadth-first walk of each workspace folder (honouring .gitignore, the ignore files and secret
 * names, never entering node_modules or .git), cut at WORKSPACE_LISTING_LIMIT entries in all with
 * a note of what was left out. The entries are shared fairly between the folders: each gets an
 * equal part, and what a small folder leaves goes to the others. A folder that is the home folder
 * or the disk's root is not walked at all. Never throws: a failure is said in the listing's place.
 */
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import type { PathGuard } from "../ignore/path-guard";
import { formatGroupedListing } from "../files/listing";
import { walkFolder, type WalkResult } from "../files/walk";
import { errorText } from "../util/error-text";
import type { WorkspaceRoots } from "../util/workspace-roots";

/** About 1.5–3k tokens for a typical tree: the top levels, enough to know where things are. */
export const WORKSPACE_LISTING_LIMIT = 200;

/** One folder's listing: `root` names it (its path; with several folders, `name: path`). */
export interface RootListing {
  readonly root: string;
  readonly text: string;
}

export async function workspaceListings(roots: WorkspaceRoots, guard: PathGuard, signal: AbortSignal, limit = WORKSPACE_LISTING_LIMIT): Promise<RootListing[]> {
  // Each walk stops at the whole limit, so a folder may take what the others leave.
  const walks = await Promise.all(roots.list.map((root) => walkRoot(root.path, guard, signal, limit)));
  const shares = fairShares(walks.map((walk) => (typeof walk === "string" ? 0 : walk.entries.length)), limit);
  const shown = (absolute: string) => roots.shown(absolute);
  return roots.list.map((root, i) => {
    const walk = walks[i] as WalkResult | string;
    const share = shares[i] ?? 0;
    const text = typeof walk === "string" ? walk : formatGroupedListing(shown, within(walk, share), share);
    return { root: roots.many ? `${root.name}: ${root.path}` : root.path, text };
  });
}

/** A folder's walk, or why it is not listed. */
async function walkRoot(root: string, guard: PathGuard, signal: AbortSignal, limit: number): Promise<WalkResult | string> {
  try {
    const real = await realpath(root);
    const home = await realpath(homedir()).catch(() => homedir());
    if (real === home || real === path.parse(real).root) {
      return `(Not listed: the workspace is ${real === home ? "the home folder" : "the file system root"}. Use list_files on the folders that matter.)`;
    }
    return await walkFolder({ cwd: root, start: root, recursive: true, limit, guard, signal });
  } catch (error) {
    // Cancelled mid-walk: the loop sees the abort next; this listing is never sent.
    if (signal.aborted) return "(Not listed: the task was cancelled.)";
    return `(The workspace could not be listed: ${errorText(error)}.)`;
  }
}

/** Equal parts of `limit`; what a folder needs less of goes to the others (water-filling). */
export function fairShares(wanted: readonly number[], limit: number): number[] {
  const shares = wanted.map(() => 0);
  let left = limit;
  const order = wanted.map((want, i) => ({ want, i })).sort((a, b) => a.want - b.want);
  for (const [k, { want, i }] of order.entries()) {
    const share = Math.min(want, Math.floor(left / (order.length - k)));
    shares[i] = share;
    left -= share;
  }
  return shares;
}

/** The walk's first `share` entries (breadth-first: the upper levels), cut as a full walk is. */
function within(walk: WalkResult, share: number): WalkResult {
  if (walk.entries.length <= share) return walk;
  return { ...walk, entries: walk.entries.slice(0, share), truncated: true };
}
