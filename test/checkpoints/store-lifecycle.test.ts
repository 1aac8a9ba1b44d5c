/**
 * The store's life outside a single task: where git is missing, checkpoints say so in one
 * sentence; deleting a task drops its ref and the objects no other task keeps (the last task takes
 * the repository with it); the store's size is measured on disk, and cleaning it empties it
 * without breaking a store that is still open.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointStore, checkpointsAvailability, checkpointStoreSize, cleanCheckpointStore } from "../../src/core/checkpoints";
import { shadowLocation } from "../../src/core/checkpoints/shadow-location";
import { checkpointPaths, shadowGit, tempFolder, writeFiles } from "./helpers";

let dir: string;
let cleanup: () => void;
let workspace: string;
let storageRoot: string;

beforeEach(() => {
  ({ dir, cleanup } = tempFolder("lifecycle"));
  workspace = path.join(dir, "workspace");
  storageRoot = path.join(dir, "storage");
  mkdirSync(workspace);
});
afterEach(() => cleanup());

function open(taskId: string): Promise<CheckpointStore> {
  return CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId });
}

function objectExists(hash: string): boolean {
  try {
    shadowGit(storageRoot, workspace, ["cat-file", "-e", hash]);
    return true;
  } catch {
    return false;
  }
}

describe("where git is missing", () => {
  it("says so in one sentence, with an empty PATH or a git binary that is not there", async () => {
    const emptyBin = path.join(dir, "empty-bin");
    mkdirSync(emptyBin);
    const savedPath = process.env.PATH;
    process.env.PATH = emptyBin;
    try {
      expect(await checkpointsAvailability()).toEqual({ available: false, reason: "Checkpoints are off: git is not installed (or not on the PATH)." });
    } finally {
      process.env.PATH = savedPath;
    }
    expect(await checkpointsAvailability({ gitBinary: path.join(dir, "no-such-git") })).toEqual({ available: false, reason: "Checkpoints are off: git is not installed (or not on the PATH)." });
    await expect(CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "t", gitBinary: path.join(dir, "no-such-git") })).rejects.toThrow(
      `Could not open checkpoints for ${workspace}: Checkpoints are off: git is not installed (or not on the PATH).`,
    );
  });

  it("names a git too old for them", async () => {
    const fakeGit = path.join(dir, "old-git");
    writeFileSync(fakeGit, "#!/bin/sh\necho 'git version 2.17.1'\n", { mode: 0o755 });
    expect(await checkpointsAvailability({ gitBinary: fakeGit })).toEqual({ available: false, reason: "Checkpoints are off: git 2.17.1 is older than 2.28, which they need." });
    expect(await checkpointsAvailability()).toMatchObject({ available: true });
  });

  it("asks a good git once, and one that failed every time (it may be installed since)", async () => {
    const calls = path.join(dir, "calls.log");
    const counted = (name: string, answer: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, `#!/bin/sh\necho "$@" >> '${calls}'\n${answer}\n`, { mode: 0o755 });
      return file;
    };
    const good = counted("counted-git", "exec git \"$@\"");
    const old = counted("counted-old-git", "echo 'git version 2.20.0'");
    for (let i = 0; i < 3; i++) expect(await checkpointsAvailability({ gitBinary: good })).toMatchObject({ available: true });
    for (let i = 0; i < 3; i++) expect(await checkpointsAvailability({ gitBinary: old })).toMatchObject({ available: false });
    await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "t", gitBinary: good });
    expect(readFileSync(calls, "utf8").split("\n").filter((line) => line === "--version")).toHaveLength(4);
  });
});

describe("deleting a task", () => {
  it("drops its ref and what no other task keeps; other tasks still restore", async () => {
    writeFiles(workspace, { "shared.txt": "shared\n" });
    const one = await open("one");
    const two = await open("two");
    const twoFirst = await two.initialize();
    await one.initialize();
    writeFiles(workspace, { "only-one.txt": "only task one saw this\n" });
    const oneSaved = await one.save("one's round");
    const onlyOne = shadowGit(storageRoot, workspace, ["rev-parse", `${oneSaved.hash}:only-one.txt`]).trim();
    writeFiles(workspace, { "only-one.txt": "changed again\n" }); // so the index no longer holds that version

    await one.deleteTask();
    expect(shadowGit(storageRoot, workspace, ["for-each-ref", "--format=%(refname)", "refs/tandem"]).trim()).toBe("refs/tandem/two");
    expect(objectExists(onlyOne)).toBe(false);
    expect(objectExists(oneSaved.hash)).toBe(false);
    const restored = await two.restoreFiles(twoFirst);
    // Task two never saved only-one.txt: its restore leaves it, and says so.
    expect(readdirSync(workspace).sort()).toEqual(["only-one.txt", "shared.txt"]);
    expect(restored.skipped.map((s) => s.path)).toEqual(["only-one.txt"]);
    // The restore's record of what it left (task two's latest checkpoint) holds the file it left.
    expect(checkpointPaths(storageRoot, workspace, "refs/tandem/two")).toEqual(["only-one.txt", "shared.txt"]);
    expect(objectExists(twoFirst)).toBe(true);
  });

  it("takes the workspace's shadow repository with it when it was the last task", async () => {
    writeFiles(workspace, { "a.txt": "a\n" });
    const store = await open("only");
    await store.initialize();
    const { gitDir } = shadowLocation(storageRoot, workspace);
    await store.deleteTask();
    expect(readdirSync(path.dirname(gitDir))).not.toContain("git");
    // Deleting again makes no repository just to delete nothing; the store works again afterwards.
    await store.deleteTask();
    expect(readdirSync(path.dirname(gitDir))).not.toContain("git");
    expect(await store.initialize()).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe("the store's size and cleaning", () => {
  it("packs loose objects after the save: a workspace of 1,500 folders leaves no pile of loose trees", async () => {
    writeFiles(workspace, Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`d${i % 50}/e${i}/f.txt`, `${i}\n`])));
    const store = await open("task");
    await store.initialize();
    await store.whenIdle(); // the packing runs after the save has returned
    const counts = shadowGit(storageRoot, workspace, ["count-objects", "-v"]);
    expect(Number(/^count: (\d+)$/m.exec(counts)?.[1])).toBeLessThan(100);
    expect(Number(/^in-pack: (\d+)$/m.exec(counts)?.[1])).toBeGreaterThan(3000);
  });

  it("reports a packing that failed after the save, and keeps working", async () => {
    const wrapper = path.join(dir, "git-without-repack");
    writeFileSync(wrapper, '#!/bin/sh\nfor a in "$@"; do [ "$a" = repack ] && { echo "repack refused" >&2; exit 1; }; done\nexec git "$@"\n', { mode: 0o755 });
    writeFiles(workspace, Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`d${i % 50}/e${i}/f.txt`, `${i}\n`])));
    const warnings: string[] = [];
    const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task", gitBinary: wrapper, onWarning: (message) => warnings.push(message) });
    await store.initialize();
    await store.whenIdle();
    expect(warnings).toEqual([`Could not pack the store's objects for ${workspace}: git repack failed: repack refused`]);
    writeFiles(workspace, { "d0/e0/f.txt": "changed\n" });
    expect((await store.save("still works")).changed).toBe(true);
  });

  it("measures the bytes on disk, and cleaning empties the store without breaking an open one", async () => {
    expect(await checkpointStoreSize(storageRoot)).toBe(0);
    writeFiles(workspace, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, `${i}\n`.repeat(1000)])));
    const store = await open("task");
    await store.initialize();
    const size = await checkpointStoreSize(storageRoot);
    expect(size).toBeGreaterThan(10_000);
    await cleanCheckpointStore(storageRoot);
    expect(await checkpointStoreSize(storageRoot)).toBe(0);
    expect(readdirSync(storageRoot)).toEqual([]);
    // The store still open makes its repository again; the old checkpoints are gone.
    const again = await store.initialize();
    expect(again).toMatch(/^[0-9a-f]{40}$/);
    await expect(store.changes(again)).resolves.toEqual([]);
  });
});
