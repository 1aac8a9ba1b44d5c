/**
 * Puts tracked files back as a checkpoint has them, given the differences between the workspace
 * now (its snapshot, stage-workspace.ts) and the checkpoint. Only paths in one of the two trees
 * are touched, so ignored, excluded and never-tracked files are not: a path the checkpoint has
 * that exists on disk but is not tracked now (ignored or excluded since, or grown too large) is
 * left alone and reported. Files the workspace has and the checkpoint lacks are deleted first
 * (deepest first, then folders they leave empty), so a file can take a folder's place and back.
 *
 * Writes never pass through a link: every folder on the way must be a real folder (a link there
 * is untracked, or it would have been deleted first), and a link or file in the way of a file is
 * replaced, not written through. A file is rewritten in place, keeping its inode and permissions
 * apart from the executable bits the checkpoint says. A restore interrupted midway is completed
 * by running it again: the next run starts from the workspace as the interruption left it.
 */
import { chmod, lstat, mkdir, readdir, rmdir, symlink, unlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { ShadowGit } from "./git-process";
import { readBlobs, type TreeDifference, type TreeEntry } from "./tree-diff";

export interface RestoreResult {
  /** Files written (created or rewritten), relative to the workspace, with "/". */
  readonly written: string[];
  /** Files deleted. */
  readonly deleted: string[];
  /** Paths left alone, and why. */
  readonly skipped: { path: string; reason: string }[];
}

const WRITES_PER_BATCH = 256;
const LINK = "120000";
const EXECUTABLE = "100755";

export async function restoreDifferences(git: ShadowGit, differences: readonly TreeDifference[]): Promise<RestoreResult> {
  const root = git.paths.workTree;
  const result: RestoreResult = { written: [], deleted: [], skipped: [] };
  const removals = differences.filter((d) => d.status === "deleted").map((d) => d.path);
  removals.sort((a, b) => b.split("/").length - a.split("/").length);
  for (const relative of removals) {
    if (await removeTracked(root, relative)) result.deleted.push(relative);
  }
  const writes = differences.filter((d) => d.after !== undefined);
  const folders = new RealFolders(root);
  for (let i = 0; i < writes.length; i += WRITES_PER_BATCH) {
    const batch = writes.slice(i, i + WRITES_PER_BATCH);
    const blobs = await readBlobs(git, batch.map((d) => (d.after as TreeEntry).oid));
    for (const difference of batch) {
      const entry = difference.after as TreeEntry;
      const reason = await writeEntry(root, difference, blobs.get(entry.oid) as Buffer, folders);
      if (reason === undefined) result.written.push(difference.path);
      else result.skipped.push({ path: difference.path, reason });
    }
  }
  return result;
}

/** Deletes a file or link the workspace tracks, then the folders it leaves empty. False: it was gone. */
async function removeTracked(root: string, relative: string): Promise<boolean> {
  const absolute = path.join(root, relative);
  try {
    await unlink(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
  for (let folder = path.dirname(absolute); folder !== root && folder.startsWith(root); folder = path.dirname(folder)) {
    try {
      await rmdir(folder);
    } catch {
      break; // not empty (or not ours to remove): the folders above are not empty either
    }
  }
  return true;
}

/** Writes one file or link as the checkpoint has it; returns why not when it must not. */
async function writeEntry(root: string, difference: TreeDifference, bytes: Buffer, folders: RealFolders): Promise<string | undefined> {
  const relative = difference.path;
  const absolute = path.join(root, relative);
  const blocked = await folders.ensure(path.dirname(relative));
  if (blocked !== undefined) return blocked;
  const existing = await lstatOrUndefined(absolute);
  if (existing?.isDirectory()) {
    // A folder where the checkpoint has a file: only an empty one may go (git tracks no folders).
    if ((await readdir(absolute)).length > 0) return "a folder with untracked files is in its place";
    await rmdir(absolute);
  } else if (existing && difference.status === "added") {
    return "it exists but checkpoints do not track it now (ignored, excluded or too large)";
  }
  const entry = difference.after as TreeEntry;
  if (entry.mode === LINK) {
    if (existing && !existing.isDirectory()) await unlink(absolute);
    await symlink(bytes.toString("utf8"), absolute);
    return undefined;
  }
  const executable = entry.mode === EXECUTABLE;
  if (existing?.isFile()) {
    await writeFile(absolute, bytes);
    const mode = existing.mode & 0o7777;
    const wanted = executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
    if (wanted !== mode) await chmod(absolute, wanted);
  } else {
    if (existing && !existing.isDirectory()) await unlink(absolute); // a link (or pipe) in the way is replaced, not written through
    await writeFile(absolute, bytes, { mode: executable ? 0o777 : 0o666, flag: "wx" });
  }
  return undefined;
}

/** Makes folders on the way to a file, refusing any that is a link or not a folder. Remembers what it checked. */
class RealFolders {
  private readonly checked = new Set<string>([""]);

  constructor(private readonly root: string) {}

  async ensure(relativeFolder: string): Promise<string | undefined> {
    const parts = relativeFolder === "." ? [] : relativeFolder.split("/");
    let current = "";
    for (const part of parts) {
      current = current === "" ? part : `${current}/${part}`;
      if (this.checked.has(current)) continue;
      const absolute = path.join(this.root, current);
      const stats = await lstatOrUndefined(absolute);
      if (stats === undefined) await mkdir(absolute);
      else if (stats.isSymbolicLink()) return `${current} is a link, and restores never write through links`;
      else if (!stats.isDirectory()) return `${current} is a file that checkpoints do not track now`;
      this.checked.add(current);
    }
    return undefined;
  }
}

async function lstatOrUndefined(absolute: string) {
  try {
    return await lstat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
