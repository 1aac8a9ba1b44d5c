/**
 * What a restore must never do, and what it must always finish: it leaves ignored, excluded and
 * never-tracked files exactly as they are (even ones changed since the checkpoint, even a file the
 * checkpoint has that is excluded now), never writes through a link, is idempotent, stops whole
 * at a file the disk refuses, and a restore killed midway (a child process, SIGKILL) is completed
 * by running it again.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/core/checkpoints";
import { shadowLocation } from "../../src/core/checkpoints/shadow-location";
import { bundleStoreChild, startChild } from "./child-process";
import { checkpointPaths, fingerprint, personGit, tempFolder, writeFiles } from "./helpers";

let dir: string;
let cleanup: () => void;
let script: string;
let workspace: string;
let storageRoot: string;
let run = 0;

beforeAll(async () => {
  ({ dir, cleanup } = tempFolder("restore"));
  script = await bundleStoreChild(dir);
});
afterAll(() => cleanup());
beforeEach(() => {
  run++;
  workspace = path.join(dir, `workspace-${run}`);
  storageRoot = path.join(dir, `storage-${run}`);
  mkdirSync(workspace);
});

function open(options: { maxFileBytes?: number } = {}): Promise<CheckpointStore> {
  return CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task-1", ...options });
}

/** A commit in the workspace's store: `base`'s tree and one more file (made with plain git, as no workspace could). */
function checkpointWith(base: string, extraPath: string): string {
  const env = { PATH: process.env.PATH ?? "", HOME: dir, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_INDEX_FILE: path.join(dir, `crafted-${run}.index`) };
  const git = (args: string[], input?: string) => execFileSync("git", [`--git-dir=${shadowLocation(storageRoot, workspace).gitDir}`, ...args], { env, input, encoding: "utf8" }).trim();
  git(["read-tree", base]);
  const blob = git(["hash-object", "-w", "--stdin"], "refused\n");
  git(["update-index", "--add", "--cacheinfo", `100644,${blob},${extraPath}`]);
  return git(["commit-tree", git(["write-tree"]), "-m", "crafted"]);
}

const untouchable = (p: string) => p === "node_modules" || p.startsWith("node_modules/") || p === "build.log" || p.startsWith("nested") || p === "big.dat" || p === "secret" || p.startsWith("secret/") || p === "art.psd";

describe("a restore", () => {
  it("never touches ignored, excluded or never-tracked files, even ones changed since the checkpoint", async () => {
    writeFiles(workspace, {
      "src/a.ts": "a1\n",
      ".gitignore": "*.log\n",
      ".tandemignore": "secret/\n",
      ".gitattributes": "*.psd filter=lfs\n",
      "build.log": "log 1\n",
      "secret/key": "k1\n",
      "art.psd": "lfs 1\n",
      "node_modules/dep/index.js": "dep 1\n",
      "nested/file.ts": "nested 1\n",
    });
    personGit(path.join(workspace, "nested"), ["init", "-q"]);
    execFileSync("truncate", ["-s", "20M", path.join(workspace, "big.dat")]);
    const store = await open();
    const first = await store.initialize();

    // The task changes tracked files; the untouchable ones change too, by other hands.
    writeFiles(workspace, { "src/a.ts": "a2\n", "src/new.ts": "new\n", "build.log": "log 2\n", "secret/key": "k2\n", "art.psd": "lfs 2\n", "node_modules/dep/index.js": "dep 2\n", "nested/file.ts": "nested 2\n", "node_modules/added.js": "added\n" });
    execFileSync("truncate", ["-s", "30M", path.join(workspace, "big.dat")]);
    await store.save("round 1");
    const untouchedBefore = fingerprint(workspace, { skip: (p) => !untouchable(p) && p !== "node_modules" });

    const result = await store.restoreFiles(first);
    expect(result.written).toEqual(["src/a.ts"]);
    expect(result.deleted).toEqual(["src/new.ts"]);
    expect(readFileSync(path.join(workspace, "src/a.ts"), "utf8")).toBe("a1\n");
    expect(fingerprint(workspace, { skip: (p) => !untouchable(p) && p !== "node_modules" })).toEqual(untouchedBefore);
  });

  it("leaves alone a file swapped for a named pipe, and one ignored since, each with its own reason", async () => {
    writeFiles(workspace, { "a.txt": "saved\n", "notes.md": "kept\n", "keep.ts": "1\n" });
    const store = await open();
    const first = await store.initialize();
    rmSync(path.join(workspace, "a.txt"));
    execFileSync("mkfifo", [path.join(workspace, "a.txt")]);
    writeFiles(workspace, { ".gitignore": "notes.md\n", "notes.md": "changed\n", "keep.ts": "2\n" });
    await store.save("round 1");
    const result = await store.restoreFiles(first);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { path: "a.txt", reason: "it is not a regular file now (a pipe, socket or device), which a restore never writes over" },
        { path: "notes.md", reason: "it exists but checkpoints do not track it now (ignored or excluded since)" },
      ]),
    );
    expect(lstatSync(path.join(workspace, "a.txt")).isFIFO()).toBe(true);
    expect(readFileSync(path.join(workspace, "notes.md"), "utf8")).toBe("changed\n");
    expect(readFileSync(path.join(workspace, "keep.ts"), "utf8")).toBe("1\n");
  });

  it("leaves alone a file the checkpoint has that is excluded now, and says so", async () => {
    writeFiles(workspace, { "data.csv": "small\n", "keep.ts": "1\n" });
    const store = await open({ maxFileBytes: 1000 });
    const first = await store.initialize();
    writeFiles(workspace, { "data.csv": "x".repeat(5000), "keep.ts": "2\n" });
    await store.save("grown");
    const result = await store.restoreFiles(first);
    expect(result.skipped).toEqual([{ path: "data.csv", reason: "it grew past the checkpoint size limit since, so no checkpoint holds what it is now and a restore would lose that" }]);
    expect(readFileSync(path.join(workspace, "data.csv"), "utf8")).toBe("x".repeat(5000));
    expect(readFileSync(path.join(workspace, "keep.ts"), "utf8")).toBe("1\n");
    // The restore's record of what it left (the task's latest checkpoint) lacks the file it left alone.
    expect(checkpointPaths(storageRoot, workspace, "refs/tandem/task-1")).toEqual(["keep.ts"]);
  });

  it("never writes through a link: a tracked link is replaced, an untracked one is left and reported", async () => {
    const outside = path.join(dir, `outside-${run}`);
    mkdirSync(outside);
    writeFiles(outside, { "lib.ts": "outside\n" });
    writeFiles(workspace, { "lib/lib.ts": "inside\n", "cache/x.ts": "x\n", ".gitignore": "linked\n" });
    const store = await open();
    const first = await store.initialize();
    // The task swaps the folder for a link to somewhere else; another folder becomes an ignored link.
    rmSync(path.join(workspace, "lib"), { recursive: true });
    symlinkSync(outside, path.join(workspace, "lib"));
    rmSync(path.join(workspace, "cache"), { recursive: true });
    writeFileSync(path.join(workspace, ".gitignore"), "linked\ncache\n");
    symlinkSync(outside, path.join(workspace, "cache"));
    await store.save("linked");

    const result = await store.restoreFiles(first);
    expect(readFileSync(path.join(outside, "lib.ts"), "utf8")).toBe("outside\n");
    expect(readFileSync(path.join(workspace, "lib/lib.ts"), "utf8")).toBe("inside\n"); // a real folder again
    expect(result.skipped).toEqual([{ path: "cache/x.ts", reason: "cache is a link, and restores never write through links" }]);
    expect(readlinkSync(path.join(workspace, "cache"))).toBe(outside);
  });

  it("is idempotent: a second restore of the same checkpoint changes nothing", async () => {
    writeFiles(workspace, { "a.txt": "1\n", "b.txt": "1\n" });
    const store = await open();
    const first = await store.initialize();
    writeFiles(workspace, { "a.txt": "2\n", "c.txt": "new\n" });
    rmSync(path.join(workspace, "b.txt"));
    await store.save("round");
    const once = await store.restoreFiles(first);
    expect(once).toEqual({ written: ["a.txt", "b.txt"], deleted: ["c.txt"], skipped: [] });
    const state = fingerprint(workspace);
    expect(await store.restoreFiles(first)).toEqual({ written: [], deleted: [], skipped: [] });
    expect(fingerprint(workspace)).toEqual(state);
  });

  it("stops at a file the disk refuses, starts no write after it, and leaves a store that restores", async () => {
    const version = (v: string) => Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/f${String(i).padStart(3, "0")}.ts`, `${v} ${i}\n`]));
    writeFiles(workspace, version("old"));
    const store = await open();
    const first = await store.initialize();
    const firstState = fingerprint(workspace);
    writeFiles(workspace, version("new"));
    await store.save("new");
    // The first checkpoint and one more file, in the middle, under a folder name too long for any disk.
    const refused = checkpointWith(first, `src/f150-${"x".repeat(300)}/a.ts`);
    await expect(store.restoreFiles(refused)).rejects.toThrow(/ENAMETOOLONG/);
    expect(readFileSync(path.join(workspace, "src/f299.ts"), "utf8")).toBe("new 299\n"); // not started
    const left = fingerprint(workspace);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fingerprint(workspace)).toEqual(left); // nothing still writing once the restore has failed
    await store.restoreFiles(first);
    expect(fingerprint(workspace)).toEqual(firstState);
    expect(await store.changes(first)).toEqual([]);
  });

  it("completes a restore killed midway when run again", async () => {
    const count = 2000;
    const version = (v: string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`src/f${String(i).padStart(4, "0")}.ts`, `${v}\n${"line\n".repeat(300)}`]));
    writeFiles(workspace, version("old"));
    const store = await open();
    const first = await store.initialize();
    const firstState = fingerprint(workspace);
    let partial = false;
    for (let attempt = 0; attempt < 5 && !partial; attempt++) {
      writeFiles(workspace, version(`new ${attempt}`));
      await store.save(`new ${attempt}`);
      const child = startChild(script, ["restore", storageRoot, workspace, "task-1", first]);
      await child.started;
      // Kill once a tenth of the files are back (files are written 32 at a time, so the first
      // one's bytes alone do not say it is whole), while the last is not yet.
      const tenthFile = path.join(workspace, "src/f0200.ts");
      const lastFile = path.join(workspace, `src/f${count - 1}.ts`);
      while (!readFileSync(tenthFile, "utf8").startsWith("old\n")) await new Promise((resolve) => setTimeout(resolve, 1));
      child.killGroup();
      await child.exited;
      partial = !readFileSync(lastFile, "utf8").startsWith("old\n");
    }
    expect(partial).toBe(true); // the kill did land in the middle
    const result = await store.restoreFiles(first);
    expect(result.written.length).toBeGreaterThan(0);
    expect(result.written.length).toBeLessThan(count);
    expect(fingerprint(workspace)).toEqual(firstState);
    expect(await store.changes(first)).toEqual([]);
  }, 60_000);
});
