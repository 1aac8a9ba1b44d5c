/**
 * Removes the temp files a killed Tandem left behind (named by `temp-name.ts`): in the workspace,
 * where tools write files atomically, and in the storage folder, where tasks are saved. Run once
 * at start (extension and CLI), in the background.
 *
 * Only Tandem's own temp names, and only those no live write can own: made by a process that no
 * longer runs, or older than a grace period (an older version's name carries no writer; a pid may
 * have been reused). A write in flight touches its temp file every few milliseconds, so a minute
 * of silence is ample. The walk skips node_modules, .git and symlinks, and visits a bounded number
 * of folders, so a huge workspace costs a bounded time.
 */
import type { Dirent } from "node:fs";
import { lstat, readdir, unlink } from "node:fs/promises";
import * as path from "node:path";
import { parseTempName } from "./temp-name";
import { isProcessRunning } from "../util/process-running";

export interface LeftoverCleanupOptions {
  /** A temp file untouched this long is removed even if its writer might still run. */
  graceMs?: number;
  /** Folders visited at most, over all roots. */
  maxFolders?: number;
  /**
   * Folders not entered: the checkpoint stores clear their own leftovers under their lock (an
   * operation's index name there is a hard link carrying an old mtime, so the grace period
   * cannot tell it from a leftover), and walking their objects costs the most.
   */
  skip?: readonly string[];
}

export interface LeftoverCleanup {
  removed: string[];
  /** False when the walk stopped at maxFolders. */
  complete: boolean;
}

const SKIPPED = new Set(["node_modules", ".git"]);
const DEFAULT_GRACE_MS = 60_000;
const DEFAULT_MAX_FOLDERS = 5_000;
const PARALLEL = 8;

/** Never rejects: a folder or file it cannot read or remove is left as it is. */
export async function removeLeftoverTempFiles(roots: readonly (string | undefined)[], options: LeftoverCleanupOptions = {}): Promise<LeftoverCleanup> {
  const { graceMs = DEFAULT_GRACE_MS, maxFolders = DEFAULT_MAX_FOLDERS } = options;
  const skipped = new Set((options.skip ?? []).map((folder) => path.resolve(folder)));
  const removed: string[] = [];
  const queue = [...new Set(roots.filter((root): root is string => Boolean(root)).map((root) => path.resolve(root)))];
  let visited = 0;
  while (queue.length > 0 && visited < maxFolders) {
    const batch = queue.splice(0, Math.min(PARALLEL, maxFolders - visited));
    visited += batch.length;
    await Promise.all(
      batch.map(async (folder) => {
        for (const entry of await entriesOf(folder)) {
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) {
            if (!SKIPPED.has(entry.name) && !skipped.has(full)) queue.push(full);
          } else if (entry.isFile() && (await isLeftover(full, entry.name, graceMs))) {
            if (await removeFile(full)) removed.push(full);
          }
        }
      }),
    );
  }
  return { removed, complete: queue.length === 0 };
}

async function entriesOf(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function isLeftover(file: string, name: string, graceMs: number): Promise<boolean> {
  const temp = parseTempName(name);
  if (!temp) return false;
  if (temp.writerPid !== undefined && !isProcessRunning(temp.writerPid)) return true;
  try {
    return Date.now() - (await lstat(file)).mtimeMs > graceMs;
  } catch {
    return false;
  }
}

async function removeFile(file: string): Promise<boolean> {
  try {
    await unlink(file);
    return true;
  } catch {
    return false;
  }
}
