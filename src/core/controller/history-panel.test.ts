/**
 * History's requests as the host carries them out: "Delete all" keeps the favourites and the open
 * task and deletes the rest with their checkpoints in one step; a search answers the newest query
 * only; a star is kept; an export goes where the save dialog says, or tells why it cannot.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryItem, ToWebviewMessage } from "../../shared/protocol";
import { ZERO_USAGE } from "../../shared/usage";
import { TaskDigests } from "../history/task-digests";
import { TaskHistory } from "../storage/task-history";
import { TaskStorage } from "../storage/task-storage";
import type { CheckpointService, TaskCheckpointStore } from "./checkpoints";
import { HistoryPanel, MAX_POSTED_MATCHES, type HistoryPanelDeps } from "./history-panel";

let root: string;
let posted: ToWebviewMessage[];
let notices: string[];
let deletedCheckpoints: string[][];
let history: TaskHistory;
let digests: TaskDigests;

const fail = (error: unknown) => {
  throw error;
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tandem-history-panel-"));
  posted = [];
  notices = [];
  deletedCheckpoints = [];
  history = new TaskHistory(root, fail);
  digests = new TaskDigests(root, fail);
});
afterEach(async () => {
  await history.flush();
  await digests.flush();
  await rm(root, { recursive: true, force: true });
});

const checkpoints = {
  forTask: async (id: string) => ({ deleteTask: async (also: readonly string[] = []) => void deletedCheckpoints.push([id, ...also]) }) as unknown as TaskCheckpointStore,
} as CheckpointService;

function panel(extra: Partial<HistoryPanelDeps> = {}): HistoryPanel {
  return new HistoryPanel({
    history,
    digests,
    storageRoot: root,
    workspace: "/w/app",
    post: (message) => posted.push(message),
    notice: (_level, text) => notices.push(text),
    openTaskId: () => "open",
    closeOpenTask: async () => undefined,
    checkpoints,
    ...extra,
  });
}

async function add(id: string, extra: Partial<HistoryItem> = {}): Promise<void> {
  await new TaskStorage(root, id).saveChatMessages([{ ts: 1, type: "say", say: "task", text: `Task ${id}` }]);
  await history.upsert({ id, text: `Task ${id}`, startedAt: 1, usage: ZERO_USAGE, workspace: "/w/app", ...extra });
}

describe("Delete all", () => {
  it("deletes the scope's tasks but the favourites and the open one, their checkpoints in one step", async () => {
    for (const id of ["a", "b", "open"]) await add(id);
    await add("starred", { favorite: true });
    await add("elsewhere", { workspace: "/w/other" });
    await panel().deleteAll("workspace");
    expect((await history.list()).map((i) => i.id).sort()).toEqual(["elsewhere", "open", "starred"]);
    expect(posted.find((m) => m.type === "historyItemsRemoved")).toEqual({ type: "historyItemsRemoved", ids: ["b", "a"] });
    expect(deletedCheckpoints).toEqual([["b", "a"]]);
    expect(notices).toEqual(["Deleted 2 tasks; the favourites and the open task are kept."]);

    await panel().deleteAll("all");
    expect((await history.list()).map((i) => i.id).sort()).toEqual(["open", "starred"]);
    await expect(panel().deleteAll("everything" as "all")).rejects.toThrow(/Unknown History scope/);
  });
});

describe("search, stars and export", () => {
  it("answers the newest query, and skips one a newer query overtook", async () => {
    await add("a");
    const p = panel();
    // Typed faster than answered: only the newest is computed; one that arrives late is dropped.
    await Promise.all([p.find("task", 1), p.find("task b", 2), p.find("task a", 3)]);
    // A reloaded page counts from 1 again: what came last is answered, whatever its number.
    await p.find("task", 1);
    const results = posted.flatMap((m) => (m.type === "historyResults" ? [[m.requestId, m.matches.map((match) => match.id)]] : []));
    expect(results).toEqual([
      [3, ["a"]],
      [1, ["a"]],
    ]);
    expect(() => p.find(7, "x")).toThrow(/numeric requestId/);
  });

  it("searches the scope's tasks only, and posts the best few hundred of many with their number", async () => {
    const items = Array.from({ length: MAX_POSTED_MATCHES + 20 }, (_, i) => ({ id: `t${i}`, text: `Task ${i}`, startedAt: i, usage: ZERO_USAGE, workspace: i % 2 ? "/w/app" : "/w/other" }));
    await writeFile(join(root, "task_history.json"), JSON.stringify(items));
    history = new TaskHistory(root, fail);
    const p = panel();
    await p.find("task", 1, "workspace");
    await p.find("task", 2, "all");
    const [mine, all] = posted.flatMap((m) => (m.type === "historyResults" ? [m] : []));
    expect([mine?.matches.length, mine?.total]).toEqual([(MAX_POSTED_MATCHES + 20) / 2, (MAX_POSTED_MATCHES + 20) / 2]);
    expect(mine?.matches.every((m) => Number(m.id.slice(1)) % 2 === 1)).toBe(true);
    expect([all?.matches.length, all?.total]).toEqual([MAX_POSTED_MATCHES, MAX_POSTED_MATCHES + 20]);
    expect(() => p.find("task", 3, "mine")).toThrow(/Unknown History scope/);
  });

  it("stars a task and takes the star away, telling the panel each time", async () => {
    await add("a");
    await panel().setFavorite("a", true);
    await panel().setFavorite("a", false);
    const changed = posted.flatMap((m) => (m.type === "historyItemChanged" ? [m.item.favorite ?? false] : []));
    expect(changed).toEqual([true, false]);
  });

  it("exports through the save dialog, says where, and says why when it cannot", async () => {
    await add("a");
    const saved: string[] = [];
    await panel({ saveFile: async (name, content) => (saved.push(name, content), "/tmp/out.md") }).exportTask("a");
    expect(saved[0]).toMatch(/^tandem-1970-01-01-task-a\.md$/);
    expect(saved[1]).toMatch(/^# Task a\n/);
    expect(notices).toEqual(["Exported the task to /tmp/out.md."]);
    await panel({ saveFile: async () => undefined }).exportTask("a");
    expect(notices).toHaveLength(1);
    await expect(panel({ saveFile: async () => "x" }).exportTask("nope")).rejects.toThrow(/No saved task nope to export/);
    await expect(panel({ saveFile: undefined }).exportTask("a")).rejects.toThrow(/not available here/);
  });
});
