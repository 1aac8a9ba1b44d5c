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
 *
 * The disk work runs FILES_IN_FLIGHT files at a time (each file's steps stay in order): one at a
 * time, the waits between the calls cost more than the writes. Folders on the way are checked
 * and made once, however many files wait on them.
 */
import * as fs from "node:fs";
import { chmod, lstat, mkdir, readdir, rmdir, symlink, unlink } from "node:fs/promises";
import * as path from "node:path";
import { promisify } from "node:util";
import type { ShadowGit } from "./git-process";
import { fsPath } from "./path-bytes";
import { forEachBlob, type TreeDifference, type TreeEntry } from "./tree-diff";
import type { KeptOutReason } from "./workspace-scan";

export interface RestoreResult {
  /** Files written (created or rewritten), relative to the workspace, with "/" (names as git gave them: path-bytes.ts). */
  readonly written: string[];
  /** Files deleted. */
  readonly deleted: string[];
  /** Paths left alone, and why. */
  readonly skipped: { path: string; reason: string }[];
}

/** Files written at once; enough to keep libuv's four threads busy, and as many blobs in memory. */
const FILES_IN_FLIGHT = 32;
const LINK = "120000";
const EXECUTABLE = "100755";

/** Why the workspace's scan kept a path out of the store now: a checkpoint's copy is not written over it. */
const KEPT_OUT_WHY: Readonly<Record<KeptOutReason, string>> = {
  "not a file": "it is not a regular file now (a pipe, socket or device), which a restore never writes over",
  "too large": "it grew past the checkpoint size limit since, so no checkpoint holds what it is now and a restore would lose that",
  LFS: "Git LFS handles it now, and checkpoints leave LFS files alone",
  "nested repository": "it is a nested repository now, which checkpoints leave alone",
};

/** `keptOut`: the paths the scan before the restore kept out of the store, and why (their copies are not written). */
export async function restoreDifferences(git: ShadowGit, differences: readonly TreeDifference[], keptOut: ReadonlyMap<string, KeptOutReason> = new Map()): Promise<RestoreResult> {
  const root = git.paths.workTree;
  const result: RestoreResult = { written: [], deleted: [], skipped: [] };
  const removals = differences.filter((d) => d.status === "deleted").map((d) => d.path);
  removals.sort((a, b) => b.split("/").length - a.split("/").length);
  // Deletions first (a file may take a deleted one's place); git starts reading the blobs meanwhile.
  const removing = (async () => {
    const removed = await inParallel(removals, (relative) => unlinkTracked(root, relative));
    result.deleted.push(...removals.filter((_, i) => removed[i]));
    await removeEmptiedFolders(root, result.deleted);
  })();
  const writes = differences.filter((d) => d.after !== undefined);
  const reasons: (string | undefined)[] = [];
  const folders = new RealFolders(root);
  await forEachBlob(git, writes.map((d) => (d.after as TreeEntry).oid), { inFlight: FILES_IN_FLIGHT, startAfter: removing }, async (i, bytes) => {
    reasons[i] = await writeEntry(root, writes[i] as TreeDifference, bytes, folders, keptOut);
  });
  writes.forEach((difference, i) => {
    const reason = reasons[i];
    if (reason === undefined) result.written.push(difference.path);
    else result.skipped.push({ path: difference.path, reason });
  });
  return result;
}

/** Deletes a file or link the workspace tracks. False: it was gone. */
async function unlinkTracked(root: string, relative: string): Promise<boolean> {
  try {
    await unlink(fsPath(path.join(root, relative)));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
}

/** Removes the folders the deleted files leave empty, deepest first, so emptied parents go too. */
async function removeEmptiedFolders(root: string, deleted: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const relative of deleted) {
    for (let folder = path.posix.dirname(relative); folder !== "." && !folders.has(folder); folder = path.posix.dirname(folder)) folders.add(folder);
  }
  const deepestFirst = [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const folder of deepestFirst) {
    // Not empty (or not ours to remove, or a link, which rmdir refuses): left as it is.
    await rmdir(fsPath(path.join(root, folder))).catch(() => undefined);
  }
}

/** Writes one file or link as the checkpoint has it; returns why not when it must not. */
async function writeEntry(root: string, difference: TreeDifference, bytes: Buffer, folders: RealFolders, keptOut: ReadonlyMap<string, KeptOutReason>): Promise<string | undefined> {
  const relative = difference.path;
  const absolute = fsPath(path.join(root, relative));
  const blocked = await folders.ensure(path.dirname(relative));
  if (blocked !== undefined) return blocked;
  const entry = difference.after as TreeEntry;
  // Most of a restore: a tracked file's content changes back, its mode stays. git's scan just
  // recorded a file here; one opened without following a link or waiting on a pipe is rewritten
  // in place at once, and whatever else took its place since (a link, a folder, nothing) goes
  // the long way below.
  if (REWRITE_FLAGS !== undefined && difference.status === "modified" && entry.mode !== LINK && difference.before?.mode === entry.mode) {
    if (await rewriteInPlace(absolute, bytes)) return undefined;
  }
  const existing = await lstatOrUndefined(absolute);
  if (existing?.isDirectory()) {
    // A folder where the checkpoint has a file: only an empty one may go (git tracks no folders).
    if ((await readdir(absolute)).length > 0) return "a folder with untracked files is in its place";
    await rmdir(absolute);
  } else if (existing && difference.status === "added") {
    return leftAloneWhy(existing, keptOut.get(relative));
  }
  if (entry.mode === LINK) {
    if (existing && !existing.isDirectory()) await unlink(absolute);
    await symlink(bytes, absolute); // the target's bytes as stored, UTF-8 or not
    return undefined;
  }
  const executable = entry.mode === EXECUTABLE;
  if (existing?.isFile()) {
    if (!(await rewriteInPlace(absolute, bytes))) return "it changed while the restore ran";
    const mode = existing.mode & 0o7777;
    const wanted = executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
    if (wanted !== mode) await chmod(absolute, wanted);
  } else {
    if (existing && !existing.isDirectory()) await unlink(absolute); // a link (or pipe) in the way is replaced, not written through
    await writeNew(absolute, bytes, executable ? 0o777 : 0o666);
  }
  return undefined;
}

/** Why a path the checkpoint has, on disk but not in the store now, is left as it is. */
function leftAloneWhy(existing: fs.Stats, kept: KeptOutReason | undefined): string {
  // git lists no pipe or device, so the scan may not have named this one.
  const why = existing.isFile() || existing.isSymbolicLink() ? kept : "not a file";
  return why ? KEPT_OUT_WHY[why] : "it exists but checkpoints do not track it now (ignored or excluded since)";
}

/**
 * Opens an existing file only: never through a link (ELOOP), never waiting on a pipe (ENXIO).
 * No O_TRUNC: on ext4, a file truncated to nothing and written again is flushed to disk at its
 * close (auto_da_alloc), which made restores several times slower; the bytes are written over
 * the old ones and the file then cut to their length. Undefined where there is no O_NOFOLLOW.
 */
const REWRITE_FLAGS = fs.constants.O_NOFOLLOW === undefined ? undefined : fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
/** What rewriteInPlace leaves to the long way: a link, a folder, nothing, a pipe or socket. */
const NOT_A_FILE = new Set(["ELOOP", "EISDIR", "ENOENT", "ENOTDIR", "ENXIO", "EMLINK", "EFTYPE"]);

/**
 * Rewrites an existing file in place (its inode and permissions stay); false when something
 * else is there. Plain callbacks: one promise a file rather than one a call.
 */
function rewriteInPlace(absolute: fs.PathLike, bytes: Buffer): Promise<boolean> {
  const flags = REWRITE_FLAGS ?? fs.constants.O_WRONLY;
  return new Promise((resolve, reject) => {
    fs.open(absolute, flags, (openError, fd) => {
      if (openError) {
        if (NOT_A_FILE.has(openError.code ?? "")) resolve(false);
        else reject(openError);
        return;
      }
      const fail = (error: Error) => fs.close(fd, () => reject(error));
      const writeFrom = (at: number): void => {
        if (at >= bytes.length) {
          fs.ftruncate(fd, bytes.length, (cutError) => (cutError ? fail(cutError) : fs.close(fd, (closeError) => (closeError ? reject(closeError) : resolve(true)))));
          return;
        }
        fs.write(fd, bytes, at, bytes.length - at, at, (writeError, written) => (writeError ? fail(writeError) : writeFrom(at + written)));
      };
      writeFrom(0);
    });
  });
}

const openFile = promisify(fs.open);
const writeAt = promisify(fs.write);
const closeFile = promisify(fs.close);

/**
 * Creates a file (it must not exist) with plain descriptors: fs/promises' writeFile goes through
 * a FileHandle, whose bookkeeping costs more than the write itself for hundreds of small files.
 */
async function writeNew(absolute: fs.PathLike, bytes: Buffer, mode: number): Promise<void> {
  const fd = await openFile(absolute, "wx", mode);
  try {
    for (let at = 0; at < bytes.length; ) at += (await writeAt(fd, bytes, at, bytes.length - at, at)).bytesWritten;
  } finally {
    await closeFile(fd);
  }
}

/** Makes folders on the way to a file, refusing any that is a link or not a folder. Checks each folder once. */
class RealFolders {
  private readonly checked = new Map<string, Promise<string | undefined>>([["", Promise.resolve(undefined)]]);

  constructor(private readonly root: string) {}

  /** Undefined when the folder is (now) a real folder; else why files cannot go there. */
  ensure(relativeFolder: string): Promise<string | undefined> {
    const folder = relativeFolder === "." ? "" : relativeFolder;
    let known = this.checked.get(folder);
    if (known === undefined) {
      // Shared by every file waiting on this folder, so two never race to make it.
      known = this.ensure(path.posix.dirname(folder)).then((blocked) => blocked ?? this.check(folder));
      this.checked.set(folder, known);
    }
    return known;
  }

  private async check(folder: string): Promise<string | undefined> {
    const absolute = fsPath(path.join(this.root, folder));
    const stats = await lstatOrUndefined(absolute);
    if (stats === undefined) await mkdir(absolute);
    else if (stats.isSymbolicLink()) return `${folder} is a link, and restores never write through links`;
    else if (!stats.isDirectory()) return `${folder} is a file that checkpoints do not track now`;
    return undefined;
  }
}

/**
 * `work` on every item, FILES_IN_FLIGHT at a time, results in the items' order. On a failure no
 * new item starts, and it is thrown once those under way have settled: nothing still writes
 * after the restore has returned (and released the store's lock).
 */
async function inParallel<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

async function lstatOrUndefined(absolute: fs.PathLike) {
  try {
    return await lstat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
