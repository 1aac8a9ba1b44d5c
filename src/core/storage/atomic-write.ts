/**
 * Crash-safe file writes: the data goes to a temp file in the same folder, is flushed to disk,
 * then renamed over the target. A crash at any moment leaves either the old file or the new one,
 * never a half-written mix. The folder must exist (callers create it: they know whether that is
 * expected). A temp file a crash leaves behind is removed by `leftover-temp-files.ts`.
 */
import { open, realpath, rename, stat, unlink } from "node:fs/promises";
import * as path from "node:path";
import { tempPathFor } from "./temp-name";

/** What a writer put on disk, for benchmarks and tests: bytes written and fsync calls. */
export interface WriteStats {
  bytes: number;
  fsyncs: number;
}

export async function writeFileAtomic(filePath: string, data: string | Uint8Array, options: { stats?: WriteStats } = {}): Promise<void> {
  // Write through symlinks: renaming onto the link itself would replace it with a plain file.
  const target = await realpathIfExists(filePath);
  const mode = await existingMode(target);
  const temp = tempPathFor(target);
  try {
    await writeNewFileSynced(temp, data, { mode, stats: options.stats });
    await rename(temp, target);
  } catch (error) {
    await removeTemp(temp, error);
    throw error;
  }
  await syncFolder(path.dirname(target), options.stats);
}

/** Creates `file` (it must not exist), writes `data` and flushes it to disk. */
export async function writeNewFileSynced(file: string, data: string | Uint8Array, options: { mode?: number; stats?: WriteStats } = {}): Promise<void> {
  const { mode, stats } = options;
  const handle = await open(file, "wx", mode ?? 0o666);
  try {
    await handle.writeFile(data);
    await handle.sync();
    // The umask may have narrowed the requested mode; an existing file keeps its own exactly.
    if (mode !== undefined) await handle.chmod(mode);
  } finally {
    await handle.close();
  }
  if (stats) {
    stats.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
    stats.fsyncs++;
  }
}

async function realpathIfExists(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return path.resolve(p);
    throw error;
  }
}

async function existingMode(p: string): Promise<number | undefined> {
  try {
    const stats = await stat(p);
    return stats.isFile() ? stats.mode & 0o7777 : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Cleans up after a failed write; a cleanup failure is attached to the original error. */
export async function removeTemp(temp: string, original: unknown): Promise<void> {
  try {
    await unlink(temp);
  } catch (cleanupError) {
    if ((cleanupError as NodeJS.ErrnoException).code === "ENOENT") return;
    if (original instanceof Error) {
      original.message += ` (and the temp file ${temp} could not be removed: ${String(cleanupError)})`;
    }
  }
}

/** Makes the rename itself durable. Windows cannot open folders, and NTFS journals renames. */
export async function syncFolder(folder: string, stats?: WriteStats): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (stats) stats.fsyncs++;
}
