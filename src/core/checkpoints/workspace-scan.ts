/**
 * What changed in the workspace since the index, and which of it may enter the store. git lists
 * the candidates: one `status`, which compares the tracked files by their stat data and lists the
 * untracked ones without walking into ignored or excluded folders (node_modules costs nothing).
 * Each candidate then gets the checks that need a look at the file itself, per save, because
 * git's own rules cannot say them: a nested repository or submodule (git lists it as `dir/` and
 * never looks inside) is kept out by its path, with its `.git` untouched; a file over the size
 * limit is kept out unread (a 1 GB file costs one lstat); a file `.gitattributes` sends to LFS is
 * kept out. Links are never followed: lstat only, and git stores a link as a link.
 */
import { lstat } from "node:fs/promises";
import * as path from "node:path";
import type { ShadowGit } from "./git-process";
import { fsPath } from "./path-bytes";

export type KeptOutReason = "nested repository" | "too large" | "LFS" | "not a file";

export interface WorkspaceScan {
  /** Paths to record as they are now: new or changed files and links. */
  readonly record: string[];
  /** Tracked paths that leave the store: deleted, grown past the size limit, now LFS, a folder, ignored, or behind a link. */
  readonly untrack: string[];
  /** Paths on disk kept out, and why (those tracked until now are in `untrack` too). */
  readonly keptOut: { path: string; reason: KeptOutReason }[];
}

export interface ScanOptions {
  readonly maxFileBytes: number;
  /** The exclusion rules changed since the last scan: tracked files they now exclude leave the store. */
  readonly rulesChanged: boolean;
  /** Nothing is tracked yet (no index): nothing can have become excluded. */
  readonly firstScan: boolean;
}

interface Candidate {
  readonly path: string;
  readonly tracked: boolean;
  readonly deleted: boolean;
}

const STAT_PARALLEL = 64;

export async function scanWorkspace(git: ShadowGit, options: ScanOptions): Promise<WorkspaceScan> {
  const status = await git.run(["status", "--porcelain=v2", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all"]);
  const candidates = parseStatus(status);
  // New rules (info/exclude, a .gitignore anywhere) may exclude files that are tracked already.
  const rulesMoved = !options.firstScan && (options.rulesChanged || candidates.some((c) => path.posix.basename(c.path) === ".gitignore"));
  const [kinds, nowIgnored] = await Promise.all([
    mapInBatches(candidates, (c) => (c.deleted || c.path.endsWith("/") ? Promise.resolve(undefined) : fileKind(git.paths.workTree, c.path, options.maxFileBytes))),
    rulesMoved ? git.run(["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"]) : Promise.resolve(""),
  ]);
  const record: string[] = [];
  const untrack = new Set<string>();
  const keptOut: { path: string; reason: KeptOutReason }[] = [];
  function keepOut(candidate: Candidate, reason: KeptOutReason): void {
    if (candidate.tracked) untrack.add(candidate.path);
    keptOut.push({ path: candidate.path, reason });
  }

  const files: Candidate[] = [];
  candidates.forEach((candidate, i) => {
    const kind = kinds[i];
    if (candidate.path.endsWith("/")) keptOut.push({ path: candidate.path.slice(0, -1), reason: "nested repository" });
    else if (kind === "file") files.push(candidate);
    else if (kind === "too large" || kind === "not a file") keepOut(candidate, kind);
    // Deleted, gone since git looked, turned into a folder (whose files are listed on their own), or
    // now behind a link: a tracked path just leaves the index; an untracked one needs nothing.
    else if (candidate.tracked) untrack.add(candidate.path);
  });

  // Whether a file goes to LFS changes only with a .gitattributes: new files are asked about, and
  // when one changed, every tracked file too. A first scan without any .gitattributes asks nothing.
  const attributesChanged = candidates.some((c) => path.posix.basename(c.path) === ".gitattributes");
  const asked = files.filter((f) => !f.tracked && (!options.firstScan || attributesChanged)).map((f) => f.path);
  if (attributesChanged && !options.firstScan) asked.push(...splitNul(await git.run(["ls-files", "-z", "--cached"])));
  const lfs = new Set(await lfsPaths(git, [...new Set(asked)]));
  for (const file of files) {
    if (lfs.has(file.path)) keepOut(file, "LFS");
    else record.push(file.path);
  }
  const changedFiles = new Set(files.map((f) => f.path));
  for (const tracked of lfs) {
    if (!changedFiles.has(tracked)) keepOut({ path: tracked, tracked: true, deleted: false }, "LFS");
  }
  for (const ignored of splitNul(nowIgnored)) untrack.add(ignored);
  return { record: record.filter((p) => !untrack.has(p)), untrack: [...untrack], keptOut };
}

/**
 * The entries of `git status --porcelain=v2 -z` whose work tree differs from the index: changed
 * tracked files (the second status letter) and untracked ones (`? path`, a nested repository as
 * `? dir/`). Differences between the index and HEAD do not matter here.
 */
export function parseStatus(output: string): Candidate[] {
  const records = output.split("\0");
  const candidates: Candidate[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? "";
    const kind = record[0];
    if (kind === "?") candidates.push({ path: record.slice(2), tracked: false, deleted: false });
    else if (kind === "1" || kind === "2" || kind === "u") {
      const worktree = record[3];
      const fieldsBeforePath = kind === "1" ? 8 : kind === "2" ? 9 : 10;
      if (kind === "2") i++; // a rename's original path follows as its own record
      if (worktree !== "." && worktree !== undefined) candidates.push({ path: afterSpaces(record, fieldsBeforePath), tracked: true, deleted: worktree === "D" });
    }
  }
  return candidates;
}

/** `git check-attr filter` for the paths: those `.gitattributes` give `filter=lfs`. */
async function lfsPaths(git: ShadowGit, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const output = await git.run(["check-attr", "-z", "--stdin", "filter"], { input: `${paths.join("\0")}\0` });
  const fields = output.split("\0");
  const lfs: string[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (fields[i + 2] === "lfs") lfs.push(fields[i] as string);
  }
  return lfs;
}

type FileKind = "file" | "folder" | "too large" | "not a file" | "gone";

async function fileKind(root: string, relative: string, maxFileBytes: number): Promise<FileKind> {
  try {
    const stats = await lstat(fsPath(path.join(root, relative)));
    if (stats.isSymbolicLink()) return "file";
    if (stats.isDirectory()) return "folder";
    if (!stats.isFile()) return "not a file"; // a socket or pipe: git cannot store it
    return stats.size > maxFileBytes ? "too large" : "file";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "gone";
    throw error;
  }
}

async function mapInBatches<T, R>(items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += STAT_PARALLEL) results.push(...(await Promise.all(items.slice(i, i + STAT_PARALLEL).map(map))));
  return results;
}

function afterSpaces(record: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = record.indexOf(" ", at) + 1;
  return record.slice(at);
}

export function splitNul(output: string): string[] {
  return output.split("\0").filter((p) => p !== "");
}
