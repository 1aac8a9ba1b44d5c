/**
 * The History index: no cap, the star kept across the Controller's records, and an index that is
 * lost or unreadable rebuilt from the task folders with every task's totals, status, workspace and start.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/messages";
import type { HistoryItem } from "../../shared/protocol";
import { sumUsage, ZERO_USAGE } from "../../shared/usage";
import { taskFolder, taskHistoryFile } from "./paths";
import { TaskHistory } from "./task-history";
import { TaskStorage } from "./task-storage";

let root: string;
let errors: string[];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-history-"));
  errors = [];
});
afterEach(() => rm(root, { recursive: true, force: true }));

const open = () => new TaskHistory(root, (error) => errors.push(String(error)));
const request = (ts: number, tokensIn: number, cost: number): ChatMessage => ({ ts, type: "say", say: "api_req_started", apiRequest: { tokensIn, tokensOut: 10, cacheWrites: 5, cacheReads: 7, cost, outcome: "completed" } });

/** A task as the Controller leaves it: its chat in its folder, its entry in the index. */
async function saveTask(history: TaskHistory, item: Omit<HistoryItem, "usage">, chat: ChatMessage[]): Promise<HistoryItem> {
  await new TaskStorage(root, item.id).saveChatMessages(chat);
  const saved = { ...item, usage: sumUsage(chat) };
  await history.upsert(saved);
  return saved;
}

describe("the History index", () => {
  it("keeps every task: there is no cap", async () => {
    // The old index dropped all but the newest 500.
    const items = Array.from({ length: 600 }, (_, i) => ({ id: `t${i}`, text: `task ${i}`, startedAt: 600 - i, usage: ZERO_USAGE }));
    await writeFile(taskHistoryFile(root), JSON.stringify(items));
    const history = open();
    await history.upsert({ id: "new", text: "one more", startedAt: 700, usage: ZERO_USAGE });
    await history.flush();
    const listed = await open().list();
    expect(listed.length).toBe(601);
    expect(listed.at(-1)?.id).toBe("t599");
  });

  it("keeps a task's star when the Controller records it again, and takes it away on request", async () => {
    const history = open();
    await history.upsert({ id: "a", text: "A", startedAt: 1, usage: ZERO_USAGE, status: "running" });
    expect(await history.amend("a", { favorite: true })).toMatchObject({ favorite: true });
    await history.upsert({ id: "a", text: "A", startedAt: 1, usage: ZERO_USAGE, status: "completed" });
    expect(await history.get("a")).toMatchObject({ favorite: true, status: "completed" });
    const unstarred = await history.amend("a", { favorite: undefined });
    expect(unstarred && "favorite" in unstarred).toBe(false);
    await history.flush();
    expect(await open().get("a")).toEqual({ id: "a", text: "A", startedAt: 1, usage: ZERO_USAGE, status: "completed" });
  });

  it("deletes many tasks in one go, folders and all", async () => {
    const history = open();
    for (const id of ["a", "b", "c"]) await saveTask(history, { id, text: id, startedAt: 1 }, [{ ts: 1, type: "say", say: "task", text: id }]);
    await history.deleteMany(["a", "c"]);
    await history.flush();
    expect((await open().list()).map((i) => i.id)).toEqual(["b"]);
    expect(await readdir(join(root, "tasks"))).toEqual(["b"]);
  });
});

describe("a lost index", () => {
  it("comes back from the task folders: each task with its totals from its chat, its status, workspace, start and star", async () => {
    const history = open();
    const first = await saveTask(history, { id: "first", text: "Rename the loader", startedAt: 1_000, status: "completed", workspace: "/w/app" }, [
      { ts: 1_000, type: "say", say: "task", text: "Rename the loader" },
      request(1_001, 1_500, 0.25),
      { ts: 1_002, type: "say", say: "checkpoint_restored", removedRequests: { requests: 1, tokensIn: 100, tokensOut: 1, cacheWrites: 0, cacheReads: 0, cost: 0.5 } },
      request(1_003, 200, 0.125),
    ]);
    const second = await saveTask(history, { id: "second", text: "Add a retry", startedAt: 2_000, status: "failed", workspace: "/w/other" }, [
      { ts: 2_000, type: "say", say: "task", text: "Add a retry" },
      request(2_001, 900, 0.5),
    ]);
    await history.amend("second", { favorite: true });
    await history.flush();
    expect(first.usage.cost).toBe(0.875);

    await rm(taskHistoryFile(root));
    expect(await open().list()).toEqual([{ ...second, favorite: true }, first]);
    expect(errors).toEqual([]);

    await writeFile(taskHistoryFile(root), "{not json");
    const again = open();
    expect(await again.list()).toEqual([{ ...second, favorite: true }, first]);
    expect(errors[0]).toMatch(/task history index .* is unreadable .* rebuilt from the task folders/);
    // The rebuilt index is written, so the next start reads it directly.
    await again.flush();
    expect((await open().list()).length).toBe(2);
  });

  it("is not written by a reader beside the owner (the CLI's listing while a task runs), which rebuilds it for itself", async () => {
    const history = open();
    await saveTask(history, { id: "a", text: "A", startedAt: 1, status: "running", workspace: "/w" }, [{ ts: 1, type: "say", say: "task", text: "A" }]);
    await history.flush();
    await rm(taskHistoryFile(root));
    const reader = new TaskHistory(root, (error) => errors.push(String(error)), { readOnly: true });
    expect((await reader.list()).map((i) => [i.id, i.status])).toEqual([["a", "running"]]);
    await reader.flush();
    expect(await readdir(root)).toEqual(["tasks"]);
  });

  it("lists a task saved before entry files existed from its chat alone, and tells of a folder it cannot read", async () => {
    await new TaskStorage(root, "old").saveChatMessages([
      { ts: 5, type: "say", say: "task", text: "An old task" },
      request(6, 10, 0.01),
      { ts: 7, type: "ask", ask: "completion_result", text: "" },
    ]);
    await new TaskStorage(root, "older").saveChatMessages([{ ts: 3, type: "say", say: "task", text: "Stopped midway" }]);
    await new TaskStorage(root, "empty").saveMode("act");
    await writeFile(join(taskFolder(root, "older"), "..", "..", "tasks", "broken"), "");
    await new TaskStorage(root, "damaged").saveChatMessages([]);
    await writeFile(join(taskFolder(root, "damaged"), "ui_messages.jsonl"), "not a journal\n{}\n");
    const items = await open().list();
    expect(items.map((i) => [i.id, i.text, i.startedAt, i.status, i.workspace, i.usage.cost])).toEqual([
      ["old", "An old task", 5, "completed", undefined, 0.01],
      // "running" in the index: shown as interrupted unless a host runs it.
      ["older", "Stopped midway", 3, "running", undefined, 0],
    ]);
    expect(errors.join("\n")).toMatch(/1 task folder was left out of the rebuilt index: damaged/);
  });
});
