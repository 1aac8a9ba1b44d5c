import { describe, expect, it } from "vitest";
import { formatTaskList, privateStorageFor, storageRootFor } from "./saved-tasks";

const env = { XDG_DATA_HOME: "/data", HOME: "/home/me" };

describe("storageRootFor", () => {
  it("is the workspace's folder under the data folder, --storage DIR, or none", () => {
    expect(storageRootFor({ kind: "default" }, "/w/app", env)).toMatch(/^\/data\/tandem\/workspaces\/app-[0-9a-f]{12}$/);
    expect(storageRootFor({ kind: "dir", dir: "/elsewhere" }, "/w/app", env)).toBe("/elsewhere");
    expect(storageRootFor({ kind: "none" }, "/w/app", env)).toBeUndefined();
  });
});

describe("privateStorageFor", () => {
  // Before, only the run's own workspace folder was hidden: with XDG_DATA_HOME outside HOME, a
  // sandboxed command could read the MCP settings and every other workspace's saved tasks.
  it("hides the whole data folder wherever XDG_DATA_HOME puts it, with or without saved tasks", () => {
    const root = storageRootFor({ kind: "default" }, "/w/app", env);
    expect(privateStorageFor(root, env)).toEqual(["/data/tandem"]);
    expect(privateStorageFor(undefined, env)).toEqual(["/data/tandem"]);
    expect(privateStorageFor("/elsewhere", env)).toEqual(["/elsewhere", "/data/tandem"]);
    expect(privateStorageFor(undefined, { HOME: "/home/me" })).toEqual(["/home/me/.local/share/tandem"]);
  });
});

describe("formatTaskList", () => {
  const item = { id: "t1", text: "Add a retry\nto the fetcher", startedAt: Date.UTC(2026, 0, 2, 3, 4), usage: { tokensIn: 1, tokensOut: 1, cacheReads: 0, cacheWrites: 0, cost: 0.5 }, status: "completed" as const, workspace: "/w/app" };

  it("prints one line per task, a star on a favourite, its workspace when listing all, and a conversation match's words", () => {
    const shape = { workspace: "/w/app", where: "/data", sort: "cost" as const };
    expect(formatTaskList([{ item: { ...item, favorite: true } }], shape)).toBe(
      "Saved tasks for /w/app, most expensive first, times in UTC (resume one with --resume ID, or --resume last):\nt1  2026-01-02 03:04  completed   $0.5000  Add a retry to the fetcher ★",
    );
    const match = { id: "t1", rank: 4, field: "conversation" as const, ranges: [], snippet: { text: "…three attempts with backoff", by: "model" as const } };
    expect(formatTaskList([{ item, match }], { ...shape, workspace: "all workspaces", search: "backoff", withWorkspace: true }).split("\n")).toEqual([
      'Saved tasks for all workspaces, matching "backoff", best match first, times in UTC (resume one with --resume ID, or --resume last):',
      "t1  2026-01-02 03:04  completed   $0.5000  Add a retry to the fetcher  (/w/app)",
      "    tandem: …three attempts with backoff",
    ]);
    expect(formatTaskList([], { ...shape, search: "zebra" })).toBe('No saved task for /w/app matches "zebra" (looked in /data).');
  });
});
