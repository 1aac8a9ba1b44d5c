/** The checkpoints of several folders as one store, over in-memory stand-ins of each folder's store (the real one: test/checkpoints/multi-root.test.ts). */
import { describe, expect, it } from "vitest";
import type { CheckpointChange, RestoredFiles } from "../../shared/checkpoints";
import { parseCheckpointId, RootsCheckpointStore, ROOTS_ID_PREFIX } from "./roots-store";
import type { TaskCheckpointStore } from "./types";

/** A folder's store that counts its saves and answers with fixed changes. */
class FolderStore implements TaskCheckpointStore {
  saves = 0;
  restored: string[] = [];
  deleted = false;
  constructor(
    private readonly folder: string,
    private readonly changed: readonly string[] = [],
  ) {}
  initialize = () => Promise.resolve(`${this.folder}-c0`);
  save = () => Promise.resolve({ hash: `${this.folder}-c${++this.saves}`, changed: this.changed.length > 0 });
  changedPaths = () => Promise.resolve([...this.changed]);
  changes = (from: string, to?: string): Promise<CheckpointChange[]> => Promise.resolve(this.changed.map((path) => ({ path, status: "modified", before: `${from}`, after: `${to ?? "now"}` })));
  restoreFiles = (hash: string): Promise<RestoredFiles> => {
    this.restored.push(hash);
    return Promise.resolve({ written: [...this.changed], deleted: [], skipped: [] });
  };
  deleteTask = () => Promise.resolve(void (this.deleted = true));
}

function storesOf(entries: Record<string, FolderStore>): (folder: string) => Promise<TaskCheckpointStore> {
  return (folder) => {
    const store = entries[folder];
    return store ? Promise.resolve(store) : Promise.reject(new Error(`no folder ${folder}`));
  };
}

const MAIN = { name: "main", path: "/w/main" };
const WEB = { name: "web", path: "/w/web" };

describe("RootsCheckpointStore", () => {
  it("keeps the plain commit hash for one folder, so single-folder tasks and older ones read as before", async () => {
    const main = new FolderStore("/w/main", ["src/a.ts"]);
    const store = await RootsCheckpointStore.open([MAIN], storesOf({ "/w/main": main }));
    expect(await store.initialize()).toBe("/w/main-c0");
    expect(await store.save("round 1")).toEqual({ hash: "/w/main-c1", changed: true });
    expect(await store.changedPaths("/w/main-c0")).toEqual(["src/a.ts"]);
    expect(await store.restoreFiles("/w/main-c0")).toEqual({ written: ["src/a.ts"], deleted: [], skipped: [] });
  });

  it("names a commit per folder in one id, and shows the other folder's paths under its name, with where they are", async () => {
    const main = new FolderStore("/w/main", ["src/a.ts"]);
    const web = new FolderStore("/w/web", ["page.ts"]);
    const store = await RootsCheckpointStore.open([MAIN, WEB], storesOf({ "/w/main": main, "/w/web": web }));
    const first = await store.initialize();
    expect(first.startsWith(ROOTS_ID_PREFIX)).toBe(true);
    expect(parseCheckpointId(first, MAIN)).toEqual([{ ...MAIN, hash: "/w/main-c0" }, { ...WEB, hash: "/w/web-c0" }]);
    const saved = await store.save("round 1");
    expect(saved.changed).toBe(true);
    expect(await store.changedPaths(first)).toEqual(["src/a.ts", "web/page.ts"]);
    const changes = await store.changes(first, saved.hash);
    expect(changes.map((c) => [c.path, c.absolute, c.before, c.after])).toEqual([
      ["src/a.ts", "/w/main/src/a.ts", "/w/main-c0", "/w/main-c1"],
      ["web/page.ts", "/w/web/page.ts", "/w/web-c0", "/w/web-c1"],
    ]);
    expect(await store.restoreFiles(first)).toEqual({ written: ["src/a.ts", "web/page.ts"], deleted: [], skipped: [] });
    expect([main.restored, web.restored]).toEqual([["/w/main-c0"], ["/w/web-c0"]]);
  });

  it("restores a checkpoint from its id alone: a plain hash is the primary's, and a folder that is gone is named, not fatal", async () => {
    const main = new FolderStore("/w/main", ["a.ts"]);
    const store = await RootsCheckpointStore.open([MAIN], storesOf({ "/w/main": main }));
    const id = `${ROOTS_ID_PREFIX}${JSON.stringify([["main", "/w/main", "m1"], ["old", "/w/old", "o1"]])}`;
    const restored = await store.restoreFiles(id);
    expect(main.restored).toEqual(["m1"]);
    expect(restored.written).toEqual(["a.ts"]);
    expect(restored.skipped).toEqual([{ path: "old/", reason: "no folder /w/old" }]);
    await expect(store.restoreFiles(`${ROOTS_ID_PREFIX}[1,2]`)).rejects.toThrow(/cannot be read/);
  });

  it("names a file of a folder inside another once, by the inner folder", async () => {
    const outer = { name: "w", path: "/w" };
    const inner = { name: "web", path: "/w/web" };
    const store = await RootsCheckpointStore.open([outer, inner], storesOf({ "/w": new FolderStore("/w", ["web/page.ts", "x.ts"]), "/w/web": new FolderStore("/w/web", ["page.ts"]) }));
    const first = await store.initialize();
    expect(await store.changedPaths(first)).toEqual(["x.ts", "web/page.ts"]);
  });

  it("fails to open when a folder's store cannot be, and deletes the task in every folder", async () => {
    await expect(RootsCheckpointStore.open([MAIN, WEB], storesOf({ "/w/main": new FolderStore("/w/main") }))).rejects.toThrow("no folder /w/web");
    const main = new FolderStore("/w/main");
    const web = new FolderStore("/w/web");
    await (await RootsCheckpointStore.open([MAIN, WEB], storesOf({ "/w/main": main, "/w/web": web }))).deleteTask();
    expect([main.deleted, web.deleted]).toEqual([true, true]);
  });
});
