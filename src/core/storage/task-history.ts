import { mkdir, readFile, rm } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import type { HistoryItem } from "../../shared/protocol";
import { writeFileAtomic } from "./atomic-write";
import { CoalescingWriter } from "./coalescing-writer";
import { taskFolder, taskHistoryFile } from "./paths";

const MAX_ITEMS = 500;

/**
 * The list of past tasks shown in the history view: one small index file, so opening the view
 * never reads every task's messages. Newest first; written atomically and coalesced.
 */
export class TaskHistory {
  private items: HistoryItem[] = [];
  private loaded: Promise<void> | undefined;
  private readonly writer: CoalescingWriter;

  constructor(
    private readonly root: string,
    private readonly onError: (error: unknown) => void,
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

  /** Adds or replaces an item and moves it to the top. */
  async upsert(item: HistoryItem): Promise<void> {
    await this.load();
    this.items = [item, ...this.items.filter((i) => i.id !== item.id)].slice(0, MAX_ITEMS);
    await this.writer.request();
  }

  /**
   * Changes a listed task in place (how it stands, its totals so far). The item as it is now, or
   * undefined when it is not listed or nothing changed (so nobody is told of it).
   */
  async amend(id: string, change: Partial<Omit<HistoryItem, "id">>): Promise<HistoryItem | undefined> {
    await this.load();
    const index = this.items.findIndex((i) => i.id === id);
    const item = this.items[index];
    if (!item) return undefined;
    const amended = { ...item, ...change };
    if (isDeepStrictEqual(amended, item)) return undefined;
    this.items = this.items.with(index, amended);
    await this.writer.request();
    return amended;
  }

  /** Forgets a task and deletes its files. */
  async delete(id: string): Promise<void> {
    await this.load();
    this.items = this.items.filter((i) => i.id !== id);
    await this.writer.request();
    await rm(taskFolder(this.root, id), { recursive: true, force: true });
  }

  private load(): Promise<void> {
    this.loaded ??= readFile(taskHistoryFile(this.root), "utf8").then(
      (text) => {
        try {
          const parsed: unknown = JSON.parse(text);
          if (!Array.isArray(parsed)) throw new Error("it does not hold a list");
          this.items = parsed.map(fromIndexEntry);
        } catch (error) {
          // Only the index is lost: the tasks themselves stay on disk.
          this.onError(new Error(`The task history index ${taskHistoryFile(this.root)} is unreadable (${(error as Error).message}); starting a new one.`));
        }
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      },
    );
    return this.loaded;
  }
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
