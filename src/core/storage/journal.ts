/**
 * A list kept on disk as a journal of its changes (`journal-format.ts`), so saving costs what
 * changed, not the whole list.
 *
 * What survives what:
 * - A change is appended synchronously (no fsync): once `append` returns it is in the page cache,
 *   which a kill -9 of Tandem cannot take away. A write a kill cuts short is an unfinished last
 *   line, dropped on reading and cut off before the next append.
 * - A power cut may lose the changes the kernel had not written back yet (seconds), never the file:
 *   compactions are fsynced before they replace it, and `flush()` (the end of a task) fsyncs it.
 * - Once the lines that later ones superseded (an item replaced or removed, all before a reset)
 *   outweigh the live list, the journal is compacted: the list is written to a temp file (fsynced,
 *   in the background), the changes made meanwhile are appended to it, and it is renamed over the
 *   journal in one synchronous step. A kill at any moment leaves the old journal or the new one,
 *   each complete. Appending only items never needs a compaction; each compaction writes at most
 *   what superseded lines had written, so the bytes written stay proportional to the changes.
 */
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, truncateSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import * as path from "node:path";
import { removeTemp, syncFolder, writeNewFileSynced, type WriteStats } from "./atomic-write";
import { encodeOp, encodeReset, type JournalOp } from "./journal-format";
import { tempPathFor } from "./temp-name";

/** Where a history's changes go. */
export interface HistoryJournal<T> {
  /** Records a change; errors go to the journal's error handler, never to the caller. */
  append(op: JournalOp<T>): void;
  /** Resolves when every change so far is on the disk itself. */
  flush(): Promise<void>;
}

export interface FileJournalOptions<T> {
  file: string;
  /** The list as it is now: what a compaction writes. */
  current: () => readonly T[];
  onError: (error: unknown) => void;
  /** A plain JSON file of an older version that this journal continues; removed once compacted in. */
  legacyFile?: string;
  stats?: WriteStats;
  /** Names an item, so a replaced or removed one is counted as superseded. */
  keyOf?: (item: T) => number;
  /** Compact once superseded bytes exceed compactFactor × the live bytes + slackBytes. */
  compactFactor?: number;
  slackBytes?: number;
}

const DEFAULT_FACTOR = 1;
const DEFAULT_SLACK = 64 * 1024;

export class FileJournal<T> implements HistoryJournal<T> {
  /** False until the file's end was checked in this session (and again after a failed append). */
  private opened = false;
  /** About what a compaction would write now, and what it would leave out. */
  private liveBytes = 0;
  private deadBytes = 0;
  /** Bytes of each keyed item's latest line. */
  private readonly sizes = new Map<number, number>();
  /** A plain list's: bytes of each item's latest line, by position (a `replace` supersedes one). */
  private positional: number[] = [];
  private unsynced = false;
  private legacyPending = false;
  /** A compaction in flight, and the lines appended since its snapshot was taken. */
  private compaction: { tail: string[]; done: Promise<void> } | undefined;

  constructor(private readonly options: FileJournalOptions<T>) {}

  append(op: JournalOp<T>): void {
    if ("reset" in op) {
      const { line, itemBytes } = encodeReset(op.reset);
      const bytes = Buffer.byteLength(line);
      if (this.write(line, bytes)) this.countReset(itemBytes, bytes, op);
    } else {
      const line = encodeOp(op);
      const bytes = Buffer.byteLength(line);
      if (this.write(line, bytes)) this.count(op, bytes);
    }
    this.maybeCompact();
  }

  async flush(): Promise<void> {
    while (this.compaction) await this.compaction.done;
    if (!this.unsynced) return;
    this.unsynced = false;
    try {
      const handle = await open(this.options.file, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (this.options.stats) this.options.stats.fsyncs++;
    } catch (error) {
      // A task deleted while it ran has no file left to flush.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.options.onError(error);
    }
  }

  /** Appends one line; false (and reported) if it could not be written. */
  private write(line: string, bytes: number): boolean {
    try {
      if (!this.opened) this.open();
      appendFileSync(this.options.file, line);
    } catch (error) {
      // The next append checks the file's end again, so a line cut short here is cut off first.
      this.opened = false;
      this.options.onError(error);
      return false;
    }
    if (this.options.stats) this.options.stats.bytes += bytes;
    this.unsynced = true;
    this.compaction?.tail.push(line);
    return true;
  }

  private open(): void {
    const { file, legacyFile } = this.options;
    mkdirSync(path.dirname(file), { recursive: true });
    // What of it is superseded is not known without reading it all: count it as live.
    this.liveBytes = dropUnfinishedLine(file);
    this.deadBytes = 0;
    this.legacyPending = legacyFile !== undefined && existsSync(legacyFile);
    this.opened = true;
  }

  /** Keeps the live and superseded byte counts of an appended change. */
  private count(op: Exclude<JournalOp<T>, { reset: unknown }>, bytes: number): void {
    const { keyOf } = this.options;
    if ("drop" in op) {
      let dropped = 0;
      for (const key of op.drop) {
        dropped += this.sizes.get(key) ?? 0;
        this.sizes.delete(key);
      }
      this.liveBytes -= dropped;
      this.deadBytes += dropped + bytes;
      return;
    }
    if ("replace" in op) {
      const before = this.positional[op.replace.index] ?? 0;
      this.positional[op.replace.index] = bytes;
      this.liveBytes += bytes - before;
      this.deadBytes += before;
      return;
    }
    if ("push" in op && !keyOf) this.positional.push(bytes);
    const item = "push" in op ? op.push : op.set;
    const key = keyOf?.(item);
    const before = key === undefined ? 0 : (this.sizes.get(key) ?? 0);
    if (key !== undefined) this.sizes.set(key, bytes);
    this.liveBytes += bytes - before;
    this.deadBytes += before;
  }

  /** A reset (or a compaction's snapshot) supersedes everything before it. */
  private countReset(itemBytes: readonly number[], bytes: number, op: { reset: readonly T[] }): void {
    const { keyOf } = this.options;
    this.deadBytes += this.liveBytes;
    this.liveBytes = bytes;
    this.sizes.clear();
    if (keyOf) op.reset.forEach((item, i) => this.sizes.set(keyOf(item), itemBytes[i] ?? 0));
    else this.positional = [...itemBytes];
  }

  private maybeCompact(): void {
    if (this.compaction) return;
    const { compactFactor = DEFAULT_FACTOR, slackBytes = DEFAULT_SLACK } = this.options;
    if (!this.legacyPending && this.deadBytes <= compactFactor * this.liveBytes + slackBytes) return;
    const op = { reset: this.options.current() };
    const snapshot = encodeReset(op.reset);
    // From now on the counts describe the new file: the snapshot plus what is appended after it.
    this.countReset(snapshot.itemBytes, Buffer.byteLength(snapshot.line), op);
    this.deadBytes = 0;
    const tail: string[] = [];
    const done = this.compact(snapshot.line, tail)
      .catch((error: unknown) => {
        // The counts now say "compacted", so the next try waits until as much is superseded again.
        this.legacyPending = false;
        this.options.onError(error);
      })
      .finally(() => (this.compaction = undefined));
    this.compaction = { tail, done };
  }

  private async compact(snapshot: string, tail: readonly string[]): Promise<void> {
    const { file, stats } = this.options;
    const temp = tempPathFor(file);
    try {
      await writeNewFileSynced(temp, snapshot, { stats });
      // From here to the rename nothing else runs, so no change made meanwhile can fall between.
      const rest = tail.join("");
      if (rest) appendFileSync(temp, rest);
      renameSync(temp, file);
      const restBytes = Buffer.byteLength(rest);
      if (stats) stats.bytes += restBytes;
      this.unsynced = restBytes > 0;
      this.opened = true;
    } catch (error) {
      await removeTemp(temp, error);
      throw error;
    }
    await syncFolder(path.dirname(file), stats);
    if (this.legacyPending && this.options.legacyFile) {
      this.legacyPending = false;
      await unlink(this.options.legacyFile).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
  }
}

/**
 * Cuts an unfinished last line (a write a crash cut short) off the file, so the next line starts
 * on a line of its own. Returns the file's length afterwards (0 when there is no file).
 */
function dropUnfinishedLine(file: string): number {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  if (size === 0 || lastByte(file, size) === 0x0a) return size;
  const keep = readFileSync(file).lastIndexOf(0x0a) + 1;
  truncateSync(file, keep);
  return keep;
}

function lastByte(file: string, size: number): number | undefined {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(1);
    readSync(fd, buffer, 0, 1, size - 1);
    return buffer[0];
  } finally {
    closeSync(fd);
  }
}
