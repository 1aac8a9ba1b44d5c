import { mkdir, readFile, rm } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import type { HistoryItem } from "../../shared/protocol";
import { writeFileAtomic } from "./atomic-write";
import { CoalescingWriter } from "./coalescing-writer";
import { entryOf, rebuildHistoryIndex, type HistoryEntryRecord } from "./history-rebuild";
import { taskFolder, taskHistoryEntryFile, taskHistoryFile } from "./paths";

/**
 * The list of past tasks shown in the history view: one small index file, so opening the view
 * never reads every task's messages. No cap: every task stays listed until it is deleted. Newest
 * first; written atomically and coalesced. Each task's folder keeps its own copy of its entry (all
 * but the totals, which its chat owns), so an index that is missing or unreadable is rebuilt from
 * the folders (`history-rebuild.ts`) and loses nothing.
 */
export class TaskHistory {
  private items: HistoryItem[] = [];
  private loaded: Promise<void> | undefined;
  private readonly writer: CoalescingWriter;
  /** Each task's entry file, written when what it holds changes (not its totals). */
  private readonly entryWriters = new Map<string, CoalescingWriter>();
  /** Deleted tasks: a late write must not bring their folder back. */
  private readonly deleted = new Set<string>();

  /**
   * `readOnly`: a reader beside the host that owns the index (the CLI's listing and export, while a
   * task may be running): an index it rebuilds is not written, so it never overwrites the owner's.
   */
  constructor(
    private readonly root: string,
    private readonly onError: (error: unknown) => void,
    private readonly options: { readonly readOnly?: boolean } = {},
  ) {
    this.writer = new CoalescingWriter(async () => {
      await mkdir(this.root, { recursive: true });
      await writeFileAtomic(taskHistoryFile(this.root), JSON.stringify(this.items));
    }, onError);
  }

  async list(): Promise<readonly HistoryItem[]> {
    await this.load();
    return this.items;
  }

  async get(id: string): Promise<HistoryItem | undefined> {
    await this.load();
    return this.items.find((item) => item.id === id);
  }

  /**
   * Adds or replaces an item and moves it to the top. Its star is the index's to keep: the
   * Controller, which records tasks, does not know of it.
   */
  async upsert(item: HistoryItem): Promise<void> {
    await this.load();
    const before = this.items.find((i) => i.id === item.id);
    const kept = before?.favorite ? { ...item, favorite: true } : item;
    this.items = [kept, ...this.items.filter((i) => i.id !== item.id)];
    this.deleted.delete(item.id);
    this.entryChanged(before, kept);
    await this.writer.request();
  }

  /**
   * Changes a listed task in place (how it stands, its totals so far, its star). The item as it is
   * now, or undefined when it is not listed or nothing changed (so nobody is told of it).
   */
  async amend(id: string, change: Partial<Omit<HistoryItem, "id">>): Promise<HistoryItem | undefined> {
    await this.load();
    const index = this.items.findIndex((i) => i.id === id);
    const item = this.items[index];
    if (!item) return undefined;
    const amended = withoutUnset({ ...item, ...change });
    if (isDeepStrictEqual(amended, item)) return undefined;
    this.items = this.items.with(index, amended);
    this.entryChanged(item, amended);
    await this.writer.request();
    return amended;
  }

  /** Forgets a task and deletes its files. */
  delete(id: string): Promise<void> {
    return this.deleteMany([id]);
  }

  /** Forgets tasks and deletes their files: one index write for them all. */
  async deleteMany(ids: readonly string[]): Promise<void> {
    await this.load();
    const gone = new Set(ids);
    for (const id of gone) this.deleted.add(id);
    this.items = this.items.filter((i) => !gone.has(i.id));
    await this.writer.request();
    // A few at a time: "Delete all" may remove thousands of folders.
    const queue = [...gone];
    const worker = async () => {
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        await this.entryWriters.get(id)?.flush();
        this.entryWriters.delete(id);
        await rm(taskFolder(this.root, id), { recursive: true, force: true });
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  }

  /** Resolves once every write asked for so far is on disk (the CLI before it exits, tests). */
  async flush(): Promise<void> {
    await this.writer.flush();
    await Promise.all([...this.entryWriters.values()].map((writer) => writer.flush()));
  }

  private entryChanged(before: HistoryItem | undefined, after: HistoryItem): void {
    const entry = entryOf(after);
    if (before && isDeepStrictEqual(entryOf(before), entry)) return;
    let writer = this.entryWriters.get(after.id);
    if (!writer) {
      writer = new CoalescingWriter(() => this.writeEntry(after.id), this.onError);
      this.entryWriters.set(after.id, writer);
    }
    void writer.request();
  }

  /** Writes the entry as the index holds it now; a deleted task's folder stays gone. */
  private async writeEntry(id: string): Promise<void> {
    const item = this.items.find((i) => i.id === id);
    if (!item || this.deleted.has(id)) return;
    const record: HistoryEntryRecord = entryOf(item);
    await mkdir(taskFolder(this.root, id), { recursive: true });
    await writeFileAtomic(taskHistoryEntryFile(this.root, id), JSON.stringify(record));
  }

  private load(): Promise<void> {
    this.loaded ??= this.read();
    return this.loaded;
  }

  private async read(): Promise<void> {
    const file = taskHistoryFile(this.root);
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (text !== undefined) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (!Array.isArray(parsed)) throw new Error("it does not hold a list");
        this.items = parsed.map(fromIndexEntry);
        return;
      } catch (error) {
        // Only the index is lost: the tasks themselves stay on disk, and it is made again from them.
        this.onError(new Error(`The task history index ${file} is unreadable (${(error as Error).message}); it is rebuilt from the task folders.`));
      }
    }
    this.items = await rebuildHistoryIndex(this.root, this.onError);
    if (this.items.length > 0 && !this.options.readOnly) await this.writer.request();
  }
}

/** An optional field changed to undefined is left out, as JSON would leave it. */
function withoutUnset(item: HistoryItem): HistoryItem {
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined)) as unknown as HistoryItem;
}

/** An entry as written by this version, or by one before the totals were one `usage` object. */
function fromIndexEntry(entry: HistoryItem & Partial<LegacyTotals>): HistoryItem {
  if (entry.usage) return entry;
  const { totalCost, tokensIn, tokensOut, cacheWrites, cacheReads, ...rest } = entry;
  return { ...rest, usage: { tokensIn: tokensIn ?? 0, tokensOut: tokensOut ?? 0, cacheWrites: cacheWrites ?? 0, cacheReads: cacheReads ?? 0, cost: totalCost ?? 0 } };
}

/** The totals' fields in an index written before December 2026. */
interface LegacyTotals {
  totalCost: number;
  tokensIn: number;
  tokensOut: number;
  cacheWrites: number;
  cacheReads: number;
}
