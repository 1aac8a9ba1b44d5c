/**
 * Saving costs what changed: over many small rounds of a real task, the bytes written to disk
 * stay within a small constant of the final history's size. Measured twice: by the storage's own
 * counter, and from outside by watching the history files (each file version seen at its largest
 * size was written at least once, so their sum is a lower bound of what the storage wrote).
 */
import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WriteStats } from "../../src/core/storage/atomic-write";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";
import { prepareWorkspace, runStorageTask, smallRounds } from "./storage-task";

const ROUNDS = 150;
const TARGET = 3;

let server: ScriptedModelServer;
let workspace: string;
let root: string;

beforeEach(async () => {
  server = await startScriptedModelServer({ turns: smallRounds(ROUNDS) });
  workspace = await mkdtemp(join(tmpdir(), "tandem-cost-ws-"));
  root = await mkdtemp(join(tmpdir(), "tandem-cost-store-"));
  await prepareWorkspace(workspace);
});

afterEach(async () => {
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

/** The largest size seen of each version (inode) of the files, checked at every chat event. */
function fileWatcher(dir: string, names: readonly string[]) {
  const largest = new Map<string, number>();
  return {
    look() {
      for (const name of names) {
        try {
          const info = statSync(join(dir, name));
          const key = `${name}:${info.ino}`;
          largest.set(key, Math.max(largest.get(key) ?? 0, info.size));
        } catch {
          // Not written yet.
        }
      }
    },
    versions: () => largest.size,
    bytes: () => [...largest.values()].reduce((a, b) => a + b, 0),
  };
}

describe("saving a task", () => {
  it(`writes under ${TARGET} bytes per byte of final history over ${ROUNDS} small rounds`, async () => {
    const stats: WriteStats = { bytes: 0, fsyncs: 0 };
    const storage = new TaskStorage(root, "cost", { stats });
    const files = ["ui_messages.jsonl", "api_conversation_history.jsonl", "ui_messages.json", "api_conversation_history.json"];
    const watcher = fileWatcher(storage.dir, files);
    const { outcome, task } = await runStorageTask({
      anthropicBaseUrl: server.anthropicBaseUrl,
      workspace,
      storage,
      listener: { onMessageAdded: () => watcher.look(), onMessageUpdated: () => watcher.look() },
    });
    watcher.look();
    expect(outcome).toBe("completed");

    const chat = await storage.loadChatMessages();
    const api = await storage.loadApiHistory();
    expect(chat).toEqual(JSON.parse(JSON.stringify(task.messages.chatMessages)));
    expect(api).toEqual(JSON.parse(JSON.stringify(task.messages.apiHistory)));
    const finalBytes = Buffer.byteLength(JSON.stringify(chat)) + Buffer.byteLength(JSON.stringify(api));
    console.log(
      `${ROUNDS} rounds: final history ${finalBytes} B; written ${stats.bytes} B (${(stats.bytes / finalBytes).toFixed(2)} per byte), ` +
        `${stats.fsyncs} fsyncs; seen from outside: ${watcher.versions()} file versions, at least ${watcher.bytes()} B`,
    );
    // From outside: the files are appended to, replaced only by the odd compaction.
    expect(watcher.bytes()).toBeLessThan(TARGET * finalBytes);
    expect(watcher.versions()).toBeLessThan(12);
    // The storage's own count: everything was written once, and not much more.
    expect(stats.bytes).toBeGreaterThanOrEqual(finalBytes);
    expect(stats.bytes).toBeLessThan(TARGET * finalBytes);
    expect(stats.fsyncs).toBeLessThan(20);
  }, 60_000);
});
