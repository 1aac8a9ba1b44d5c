/**
 * What saving a task costs on disk: 800 small rounds (a line of prose and one quick tool each)
 * through the whole Task, the real SDK and the scripted model server, saved in a temp folder:
 *   (a) as Tandem saves now: journals of changes, compacted now and then (`src/core/storage/journal.ts`);
 *   (b) the old way, as the baseline in the same run: the whole history rewritten atomically
 *       (temp file, fsync, rename, folder fsync) each time a message completes, coalesced.
 * Bytes and fsyncs are counted by the storage layer itself (`WriteStats`). Printed: bytes written
 * per byte of final history (target under 3) and fsync calls, for both.
 * `ROUNDS=200 npm run bench storage` for a shorter run.
 */
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ApiMessage } from "../src/api/types";
import { CoalescingWriter } from "../src/core/storage/coalescing-writer";
import { writeFileAtomic, type WriteStats } from "../src/core/storage/atomic-write";
import type { HistoryJournal } from "../src/core/storage/journal";
import type { JournalOp } from "../src/core/storage/journal-format";
import { TaskStorage } from "../src/core/storage/task-storage";
import type { ChatMessage } from "../src/shared/messages";
import { startScriptedModelServer } from "../test/support/scripted-model-server";
import { prepareWorkspace, runStorageTask, smallRounds } from "../test/storage/storage-task";

const ROUNDS = Number(process.env.ROUNDS ?? 800);
const TARGET = 3;

interface Sample {
  stats: WriteStats;
  finalBytes: number;
  ms: number;
  files: string[];
}

export async function run(): Promise<void> {
  console.log(`${ROUNDS} small rounds through the whole Task, saved in a temp folder`);
  const journal = await measure((root, stats) => new TaskStorage(root, "bench", { stats }));
  const rewrite = await measure((root, stats) => new FullRewriteStorage(root, "bench", { stats }));
  for (const [name, s] of [["journal (now)", journal], ["full rewrite (before)", rewrite]] as const) {
    console.log(
      `${name.padEnd(22)} ${mb(s.stats.bytes)} written for ${kb(s.finalBytes)} of final history = ` +
        `${(s.stats.bytes / s.finalBytes).toFixed(2)} bytes per byte, ${s.stats.fsyncs} fsyncs, ${(s.ms / 1000).toFixed(1)} s ` +
        `(files: ${s.files.join(", ")})`,
    );
  }
  const ratio = journal.stats.bytes / journal.finalBytes;
  console.log(`ratio full rewrite / journal, bytes written: ${(rewrite.stats.bytes / journal.stats.bytes).toFixed(0)}x; fsyncs: ${rewrite.stats.fsyncs} vs ${journal.stats.fsyncs}`);
  console.log(`${ratio < TARGET ? "PASS" : "MISS"} target: bytes written per byte of final history under ${TARGET} (${ratio.toFixed(2)})`);
}

async function measure(makeStorage: (root: string, stats: WriteStats) => TaskStorage): Promise<Sample> {
  const server = await startScriptedModelServer({ turns: smallRounds(ROUNDS) });
  const workspace = await mkdtemp(join(tmpdir(), "tandem-bench-ws-"));
  const root = await mkdtemp(join(tmpdir(), "tandem-bench-store-"));
  try {
    await prepareWorkspace(workspace);
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const storage = makeStorage(root, stats);
    const started = performance.now();
    const { outcome, task } = await runStorageTask({ anthropicBaseUrl: server.anthropicBaseUrl, workspace, storage });
    const ms = performance.now() - started;
    if (outcome !== "completed") throw new Error(`the benchmark task ended "${outcome}"`);
    const chat = await storage.loadChatMessages();
    const api = await storage.loadApiHistory();
    // What is on disk must be exactly what the task ended with, or the figures mean nothing.
    if (!isDeepStrictEqual(chat, plain(task.messages.chatMessages)) || !isDeepStrictEqual(api, plain(task.messages.apiHistory))) {
      throw new Error("the saved history differs from the task's own");
    }
    const finalBytes = Buffer.byteLength(JSON.stringify(chat)) + Buffer.byteLength(JSON.stringify(api));
    return { stats, finalBytes, ms, files: await readdir(storage.dir) };
  } finally {
    await server.close();
    await rm(workspace, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  }
}

/** The old way, as `task-storage.ts` saved before the journal: the whole file per completed change. */
class FullRewriteStorage extends TaskStorage {
  constructor(root: string, taskId: string, private readonly counted: { stats: WriteStats }) {
    super(root, taskId, counted);
  }

  override chatJournal(current: () => readonly ChatMessage[], onError: (error: unknown) => void): HistoryJournal<ChatMessage> {
    return this.rewriter(join(this.dir, "ui_messages.json"), current, onError);
  }

  override apiJournal(current: () => readonly ApiMessage[], onError: (error: unknown) => void): HistoryJournal<ApiMessage> {
    return this.rewriter(join(this.dir, "api_conversation_history.json"), current, onError);
  }

  private rewriter<T>(file: string, current: () => readonly T[], onError: (error: unknown) => void): HistoryJournal<T> {
    const writer = new CoalescingWriter(async () => {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(file, JSON.stringify(current()), { stats: this.counted.stats });
    }, onError);
    return {
      // The old code did not save a message when it first appeared still streaming.
      append: (op: JournalOp<T>) => void ("push" in op && (op.push as { partial?: boolean }).partial ? undefined : writer.request()),
      flush: () => writer.flush(),
    };
  }
}

function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KB`;
}
