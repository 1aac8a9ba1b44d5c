/**
 * The whole checkpoint store of a storage folder, for the settings view: its size on disk, and
 * cleaning it. Cleaning takes each workspace's store lock first, so it never pulls a repository
 * from under an operation in another window; a store opened before is made again on its next use.
 */
import type { Dirent } from "node:fs";
import { lstat, readdir, rm, rmdir } from "node:fs/promises";
import * as path from "node:path";
import { checkpointsFolder } from "../storage/paths";
import { shadowLockFile } from "./shadow-location";
import { acquireStoreLock } from "./store-lock";

/**
 * Bytes on disk (allocated blocks) of every shadow repository under the storage folder. Links are
 * not followed. Names are read and joined as bytes, so one that is not UTF-8 is counted too.
 */
export async function checkpointStoreSize(storageRoot: string): Promise<number> {
  let total = 0;
  const folders: Buffer[] = [Buffer.from(checkpointsFolder(storageRoot))];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of await byteEntriesOf(folder)) {
      const full = Buffer.concat([folder, SEPARATOR, entry.name]);
      if (entry.isDirectory()) folders.push(full);
      const stats = await lstat(full).catch(() => undefined); // removed meanwhile
      if (stats) total += stats.blocks !== undefined ? stats.blocks * 512 : stats.size;
    }
  }
  return total;
}

/** Deletes every shadow repository under the storage folder. */
export async function cleanCheckpointStore(storageRoot: string): Promise<void> {
  const root = checkpointsFolder(storageRoot);
  for (const entry of await entriesOf(root)) {
    const folder = path.join(root, entry.name);
    if (!entry.isDirectory()) {
      await rm(folder, { force: true });
      continue;
    }
    const lock = await acquireStoreLock(shadowLockFile(folder));
    try {
      const lockName = Buffer.from(path.basename(shadowLockFile(folder)));
      const folderBytes = Buffer.from(folder);
      for (const inside of await byteEntriesOf(folderBytes)) {
        if (!inside.name.equals(lockName)) await rm(Buffer.concat([folderBytes, SEPARATOR, inside.name]), { recursive: true, force: true });
      }
    } finally {
      await lock.release();
    }
    await rmdir(folder).catch(() => undefined); // someone made it again meanwhile: theirs now
  }
  await rmdir(root).catch(() => undefined);
}

const SEPARATOR = Buffer.from(path.sep);

async function byteEntriesOf(folder: Buffer): Promise<Dirent<Buffer>[]> {
  try {
    return await readdir(folder, { withFileTypes: true, encoding: "buffer" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function entriesOf(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
