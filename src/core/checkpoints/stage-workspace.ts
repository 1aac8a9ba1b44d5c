/**
 * Brings the index up to the workspace as it is now and returns its tree: the snapshot a
 * checkpoint commits, `changes()` compares and a restore starts from. Writes the exclusion rules
 * first (only when they changed), scans (workspace-scan.ts), then records exactly what the scan
 * allowed: a short list through `update-index`, hashing only those files; a long one (the first
 * checkpoint, a branch switch) through one `git add -A` that leaves out the kept-out paths by
 * pathspec, because only `git add` streams the blobs into a single pack (see shadow-setup.ts)
 * and a long list of literal pathspecs costs git time in proportion to files times paths.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { writeFileAtomic } from "../storage/atomic-write";
import { composeExcludeFile } from "./exclusions";
import type { ShadowGit } from "./git-process";
import { scanWorkspace, type WorkspaceScan } from "./workspace-scan";
import { exists } from "./fs-probes";
import { decodeBytes, encodeText } from "./path-bytes";

/** Up to this many paths are recorded one by one; more go through `git add -A`. */
const EXACT_LIST_LIMIT = 200;

export interface StagedWorkspace {
  readonly tree: string;
  readonly scan: WorkspaceScan;
}

export interface StageOptions {
  readonly maxFileBytes: number;
  /** The person's global excludes file (shadow-setup.ts). */
  readonly personalExcludesFile: string;
}

export async function stageWorkspace(git: ShadowGit, options: StageOptions): Promise<StagedWorkspace> {
  const scan = await stageIndex(git, options);
  const tree = (await git.run(["write-tree"])).trim();
  return { tree, scan };
}

/** stageWorkspace without writing the tree: the index is the workspace now (a restore diffs it as it is). */
export async function stageIndex(git: ShadowGit, options: StageOptions): Promise<WorkspaceScan> {
  const rulesChanged = await writeExcludeFile(git, options.personalExcludesFile);
  const firstScan = !(await exists(git.indexFile));
  const scan = await scanWorkspace(git, { maxFileBytes: options.maxFileBytes, rulesChanged, firstScan });
  await untrackExactly(git, scan.untrack);
  if (scan.record.length > EXACT_LIST_LIMIT) {
    // Files that became ignored need no pathspec: untracked now, git add leaves them out by itself.
    const keptOut = scan.keptOut.map((k) => `:(exclude,literal)${k.path}`);
    await git.run(["add", "--all", "--pathspec-from-file=-", "--pathspec-file-nul"], { input: nulList([".", ...keptOut]) });
  } else {
    await recordExactly(git, scan.record);
  }
  return scan;
}

/** Records exactly these paths as they are on disk now (a deleted one leaves the index). */
export async function recordExactly(git: ShadowGit, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  // update-index writes each "big" blob as a pack of its own: for a few files, loose objects
  // are better. (A file taking a folder's place, or the reverse, needs no --replace: the old paths
  // left the index first.)
  await git.run(["-c", "core.bigFileThreshold=512m", "update-index", "--add", "--remove", "-z", "--stdin"], { input: nulList(paths) });
}

/** Drops these paths from the index, whatever is on disk there now. */
export async function untrackExactly(git: ShadowGit, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await git.run(["update-index", "--force-remove", "-z", "--stdin"], { input: nulList(paths) });
}

/**
 * Sets index entries as given, reading no file: each takes its mode and blob (what a restore just
 * wrote), mode "0" drops the path. The entries carry no stat data, so git compares those files'
 * contents the next time it looks at them: one changed since reads as changed. (Hashing them now
 * would cost as much, and git would read them again anyway: written within the second of the
 * index, their stat data could not be trusted.)
 */
export async function setEntries(git: ShadowGit, entries: readonly { path: string; mode: string; oid: string }[]): Promise<void> {
  if (entries.length === 0) return;
  // In order: a drop before an entry lets a file take a folder's place, or the reverse.
  await git.run(["update-index", "-z", "--index-info"], { input: entries.map((e) => `${e.mode} ${e.oid}\t${e.path}\0`).join("") });
}

/** Rewrites the shadow's `info/exclude` when its sources changed; says whether it did. */
async function writeExcludeFile(git: ShadowGit, personalExcludesFile: string): Promise<boolean> {
  const file = path.join(git.paths.gitDir, "info", "exclude");
  const wanted = await composeExcludeFile(git.paths.workTree, personalExcludesFile);
  // Read and written as bytes: a pattern naming a file that is not UTF-8 stays that name.
  const current = await readFile(file).then(decodeBytes, () => undefined);
  if (current === wanted) return false;
  await writeFileAtomic(file, encodeText(wanted));
  return true;
}

function nulList(paths: readonly string[]): string {
  return `${paths.join("\0")}\0`;
}
