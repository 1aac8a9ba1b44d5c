/**
 * Checkpoints in the loop, through the real Controller, Task, SDK, scripted model server and the
 * real git store: where they are made (the task's row, each round that changed files), what waits
 * for the initial one (edits do, the first request does not), and restoring files, task or both.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckpointService } from "../../src/core/controller/checkpoints";
import type { ChatMessage } from "../../src/shared/messages";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function open(options: Omit<HarnessOptions, "provider">): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, checkpoints: true, ...options });
  return harness;
}

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const list = { text: "<list_files>\n<path>.</path>\n</list_files>" };
const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const markers = (messages: readonly ChatMessage[]) => messages.filter((m) => m.type === "say" && m.say === "checkpoint_created");
const userText = (body: unknown) => JSON.stringify(body);
/** Approves everything but leaves the result's question open, as a person reading it would. */
const approveButResult: HarnessOptions["answer"] = (ask) => (ask.ask === "completion_result" ? undefined : { type: "yes" });

async function acceptResult(h: Harness): Promise<void> {
  const ask = await h.waitForAsk("completion_result");
  h.controller.answer(ask.ts, { type: "yes" });
}

describe("checkpoints in the loop", () => {
  it("marks the task's row and each round that changed files, not a read-only round", async () => {
    const h = await open({ turns: [write("a.txt", "one"), list, write("b.txt", "two"), done] });
    expect(await h.run("Write two files")).toBe("completed");
    expect(h.messages[0]?.checkpoint?.hash).toMatch(/^[0-9a-f]{40}$/);
    const rows = markers(h.messages);
    expect(rows).toHaveLength(2);
    expect(new Set([h.messages[0]?.checkpoint?.hash, ...rows.map((r) => r.checkpoint?.hash)]).size).toBe(3);
    // The first marker is the workspace after round 1: a.txt only.
    const changes = await h.controller.checkpointChanges(rows[0]!.ts);
    expect(changes.map((c) => [c.path, c.status])).toEqual([["b.txt", "added"]]);
    const all = await h.controller.checkpointChanges(h.messages[0]!.ts);
    expect(all.map((c) => c.path).sort()).toEqual(["a.txt", "b.txt"]);
  });

  it("sends the first request without waiting for the initial checkpoint; an edit waits for it", async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = (real: CheckpointService): CheckpointService => ({
      ...real,
      forTask: async (taskId) => {
        const store = await real.forTask(taskId);
        return {
          ...store,
          changes: (from, to) => store.changes(from, to),
          restoreFiles: (hash) => store.restoreFiles(hash),
          deleteTask: () => store.deleteTask(),
          save: (label) => store.save(label),
          initialize: async () => {
            const hash = await store.initialize();
            await held;
            events.push("initial checkpoint");
            return hash;
          },
        };
      },
    });
    const h = await open({ turns: [write("a.txt", "one"), done], checkpoints: slow });
    await h.start("Write a file");
    await until(() => h.server.requests.length === 1);
    events.push("first request");
    // The edit is approved, but waits for the initial checkpoint before it touches the disk.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(readFile(join(h.workspace, "a.txt"), "utf8")).rejects.toThrow();
    release();
    expect(await h.finished()).toBe("completed");
    expect(events).toEqual(["first request", "initial checkpoint"]);
    expect(await readFile(join(h.workspace, "a.txt"), "utf8")).toBe("one\n");
  });

  it("restores the files only: the chat stays and the task goes on", async () => {
    const h = await open({ turns: [write("a.txt", "one"), write("a.txt", "two"), done], answer: approveButResult });
    await h.start("Edit a.txt twice");
    await h.waitForAsk("completion_result");
    const [first] = markers(h.messages);
    await h.controller.restoreCheckpoint(first!.ts, "files");
    expect(await readFile(join(h.workspace, "a.txt"), "utf8")).toBe("one\n");
    expect(h.controller.openQuestion?.kind).toBe("completion_result");
  });

  it("restores the task: the chat ends at the checkpoint, the model's conversation at that round, and it goes on from there", async () => {
    const h = await open({ turns: [write("a.txt", "one"), write("a.txt", "two"), done, done], answer: approveButResult });
    await h.start("Edit a.txt twice");
    await h.waitForAsk("completion_result");
    const [first, second] = markers(h.messages);
    const resultTs = h.controller.openQuestion?.id;
    await writeFile(join(h.workspace, "untracked-by-task.txt"), "mine");
    await h.controller.restoreCheckpoint(first!.ts, "both");
    expect(await readFile(join(h.workspace, "a.txt"), "utf8")).toBe("one\n");
    // The chat goes on from the checkpoint's row: the row carrying what the removed requests cost
    // (they stay in the totals), then the question to resume; what came after is gone.
    const chat = h.controller.messages;
    const at = chat.findIndex((m) => m.ts === first!.ts);
    expect(chat[at + 1]).toMatchObject({ type: "say", say: "checkpoint_restored", removedRequests: { requests: 2 } });
    expect(chat[at + 2]).toMatchObject({ type: "ask", ask: "resume_task" });
    expect(chat.some((m) => m.ts === second!.ts || m.ts === resultTs)).toBe(false);
    await acceptResult(h);
    expect(await h.finished()).toBe("completed");
    const last = h.server.requests.at(-1)?.body.messages;
    // Round 1's call and result, then the restore note; round 2 is gone from what the model sees.
    expect(last).toHaveLength(3);
    expect(userText(last)).toContain("TASK RESTORED");
    expect(userText(last)).toContain("<content>\\none\\n");
    expect(userText(last)).not.toContain("<content>\\ntwo");
    expect(await readFile(join(h.workspace, "untracked-by-task.txt"), "utf8")).toBe("mine");
  });

  it("refuses to restore while the task is mid-round", async () => {
    const h = await open({ turns: [write("a.txt", "one"), { text: "slow ".repeat(400), chunkSize: 4, delayMs: 5 }, done] });
    await h.start("Edit");
    await until(() => markers(h.messages).length === 1 && h.server.requests.length === 2);
    await expect(h.controller.restoreCheckpoint(markers(h.messages)[0]!.ts, "files")).rejects.toThrow(/still working/);
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
