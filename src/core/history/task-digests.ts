/**
 * Every task's digest (`task-digest.ts`), in its folder (`search_digest.txt`) and in memory. The
 * History follower gives it each task's chat as the task runs; History's search loads the digests
 * of the listed tasks once and then reads memory only. A task saved before digests existed gets
 * one made from its chat the first time it is loaded.
 */
import { mkdir, readFile } from "node:fs/promises";
import type { ChatMessage } from "../../shared/messages";
import { writeFileAtomic } from "../storage/atomic-write";
import { CoalescingWriter } from "../storage/coalescing-writer";
import { taskDigestFile, taskFolder } from "../storage/paths";
import { TaskStorage } from "../storage/task-storage";
import { taskDigest } from "./task-digest";

/** Files read at once while loading. */
const PARALLEL_READS = 32;

export class TaskDigests {
  private readonly memory = new Map<string, string>();
  private readonly writers = new Map<string, CoalescingWriter>();
  private readonly forgotten = new Set<string>();
  /** Grows with each change of a digest in memory (the search's narrowing is valid within one version). */
  version = 0;

  /** `readOnly`: a digest made from an older task's chat is kept in memory only (the CLI's one-off search). */
  constructor(
    private readonly root: string,
    private readonly onError: (error: unknown) => void,
    private readonly options: { readonly readOnly?: boolean } = {},
  ) {}

  /** Task `taskId`'s chat as it is now: its digest is made again, and written when it changed. */
  update(taskId: string, chat: readonly ChatMessage[]): void {
    this.forgotten.delete(taskId);
    this.set(taskId, taskDigest(chat), true);
  }

  /** The digest in memory; undefined when it was not loaded or made in this process. */
  get(taskId: string): string | undefined {
    return this.memory.get(taskId);
  }

  /** Loads the digests of `ids` not in memory yet (only the first call for a list reads files). */
  async load(ids: readonly string[]): Promise<void> {
    const queue = ids.filter((id) => !this.memory.has(id));
    const worker = async () => {
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        const { digest, made } = await this.read(id);
        // A digest the task made meanwhile is newer than the file.
        if (!this.memory.has(id)) this.set(id, digest, made && !this.options.readOnly);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, queue.length) }, worker));
  }

  /** Tasks about to be deleted: no write of theirs may follow (it would bring the folder back). */
  async forget(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.forgotten.add(id);
      this.memory.delete(id);
    }
    await Promise.all(ids.map((id) => this.writers.get(id)?.flush()));
    for (const id of ids) this.writers.delete(id);
  }

  /** Resolves once every digest asked to be written is on disk. */
  async flush(): Promise<void> {
    await Promise.all([...this.writers.values()].map((writer) => writer.flush()));
  }

  private set(taskId: string, digest: string, write: boolean): void {
    if (this.memory.get(taskId) === digest) return;
    this.memory.set(taskId, digest);
    this.version++;
    if (!write) return;
    let writer = this.writers.get(taskId);
    if (!writer) {
      writer = new CoalescingWriter(() => this.write(taskId), this.onError);
      this.writers.set(taskId, writer);
    }
    void writer.request();
  }

  private async write(taskId: string): Promise<void> {
    const digest = this.memory.get(taskId);
    if (digest === undefined || this.forgotten.has(taskId)) return;
    await mkdir(taskFolder(this.root, taskId), { recursive: true });
    await writeFileAtomic(taskDigestFile(this.root, taskId), digest);
  }

  /** The file's digest; else one made from the chat (`made`: to be written); else nothing to search. */
  private async read(taskId: string): Promise<{ digest: string; made: boolean }> {
    try {
      return { digest: await readFile(taskDigestFile(this.root, taskId), "utf8"), made: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return { digest: "", made: false };
    }
    try {
      const chat = await new TaskStorage(this.root, taskId).loadChatMessages();
      // No chat, no folder to write into: a listed task whose files are gone is not brought back.
      return { digest: taskDigest(chat), made: chat.length > 0 };
    } catch {
      // A damaged chat says so when the task is opened; its text alone is searched meanwhile.
      return { digest: "", made: false };
    }
  }
}
