/**
 * What a restore must never do, and what it must always finish: it leaves ignored, excluded and
 * never-tracked files exactly as they are (even ones changed since the checkpoint, even a file the
 * checkpoint has that is excluded now), never writes through a link, is idempotent, and a restore
 * killed midway (a child process, SIGKILL) is completed by running it again.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/core/checkpoints";
import { bundleStoreChild, startChild } from "./child-process";
import { fingerprint, personGit, tempFolder, writeFiles } from "./helpers";

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

  it("leaves alone a file the checkpoint has that is excluded now, and says so", async () => {
    writeFiles(workspace, { "data.csv": "small\n", "keep.ts": "1\n" });
    const store = await open({ maxFileBytes: 1000 });
    const first = await store.initialize();
    writeFiles(workspace, { "data.csv": "x".repeat(5000), "keep.ts": "2\n" });
    await store.save("grown");
    const result = await store.restoreFiles(first);
    expect(result.skipped).toEqual([{ path: "data.csv", reason: "it exists but checkpoints do not track it now (ignored, excluded or too large)" }]);
    expect(readFileSync(path.join(workspace, "data.csv"), "utf8")).toBe("x".repeat(5000));
    expect(readFileSync(path.join(workspace, "keep.ts"), "utf8")).toBe("1\n");
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
      // Kill as soon as the first file is back, while the last is not yet.
      const firstFile = path.join(workspace, "src/f0000.ts");
      const lastFile = path.join(workspace, `src/f${count - 1}.ts`);
      while (!readFileSync(firstFile, "utf8").startsWith("old\n")) await new Promise((resolve) => setTimeout(resolve, 1));
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
