import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeLeftoverTempFiles } from "./leftover-temp-files";
import { parseTempName, tempPathFor } from "./temp-name";

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), "tandem-leftover-"))));
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Starts a real writeFileAtomic of a large file in its own process and SIGKILLs it mid-write. */
async function killWriterMidWrite(target: string): Promise<string> {
  const script = `
    import atomic from ${JSON.stringify(path.resolve("src/core/storage/atomic-write.ts"))};
    await atomic.writeFileAtomic(${JSON.stringify(target)}, Buffer.alloc(256 * 1024 * 1024, 97));`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const folder = path.dirname(target);
  for (let i = 0; i < 2_000; i++) {
    const temp = (await readdir(folder)).find((name) => parseTempName(name));
    if (temp) {
      child.kill("SIGKILL");
      await exited;
      return path.join(folder, temp);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill("SIGKILL");
  throw new Error("the writer never created its temp file");
}

async function touch(file: string, ageMs = 0): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "x");
  if (ageMs) {
    const when = new Date(Date.now() - ageMs);
    await utimes(file, when, when);
  }
}

describe("removeLeftoverTempFiles", () => {
  it("removes what a SIGKILLed writer left, and keeps everything else", async () => {
    const workspace = path.join(dir, "ws");
    await mkdir(path.join(workspace, "src"), { recursive: true });
    const leftover = await killWriterMidWrite(path.join(workspace, "src", "big.txt"));
    expect(existsSync(leftover)).toBe(true);

    const kept = [
      path.join(workspace, "src", "app.ts"),
      path.join(workspace, ".foo.tmp"), // a person's own temp file
      path.join(workspace, ".notes.txt.abc123.tmp"), // looks alike, is not Tandem's
      path.join(workspace, "node_modules", "pkg", `.index.js.tandem-999999999-0123abcd.tmp`), // not walked
      tempPathFor(path.join(workspace, "live.txt")), // this process is writing it right now
      path.join(workspace, "src", ".fresh.txt.0123456789ab.tmp"), // an older version's, maybe in flight
    ];
    for (const file of kept) await touch(file);
    const oldFormat = path.join(workspace, "src", ".old.txt.0123456789ab.tmp");
    await touch(oldFormat, 10 * 60_000);

    const result = await removeLeftoverTempFiles([workspace]);
    expect(result.removed.sort()).toEqual([leftover, oldFormat].sort());
    expect(result.complete).toBe(true);
    for (const file of kept) expect(existsSync(file), file).toBe(true);
    expect(existsSync(leftover)).toBe(false);
  }, 30_000);

  it("cleans the task folders under the storage root too, and ignores roots that are missing", async () => {
    const storage = path.join(dir, "storage");
    const temp = path.join(storage, "tasks", "t1", ".ui_messages.jsonl.tandem-999999999-00aa00aa.tmp");
    await touch(temp);
    await touch(path.join(storage, "tasks", "t1", "ui_messages.jsonl"));
    const result = await removeLeftoverTempFiles([storage, undefined, path.join(dir, "missing")]);
    expect(result.removed).toEqual([temp]);
    expect(await readdir(path.join(storage, "tasks", "t1"))).toEqual(["ui_messages.jsonl"]);
  });

  it("does not enter a skipped folder (the checkpoint stores, which clear their own leftovers under their lock)", async () => {
    const storage = path.join(dir, "storage");
    const indexName = path.join(storage, "checkpoints", "ws-1234", "git", ".index.tandem-999999999-00aa00aa.tmp");
    const leftover = path.join(storage, "tasks", "t1", ".x.tandem-999999999-00aa00aa.tmp");
    await touch(indexName, 120_000);
    await touch(leftover);
    const result = await removeLeftoverTempFiles([storage], { skip: [path.join(storage, "checkpoints")] });
    expect(result.removed).toEqual([leftover]);
    expect(existsSync(indexName)).toBe(true);
  });

  it("does not follow symlinks and stops after a bounded number of folders", async () => {
    const outside = path.join(dir, "outside");
    const outsideTemp = path.join(outside, ".a.tandem-999999999-00000000.tmp");
    await touch(outsideTemp);
    const workspace = path.join(dir, "ws");
    await mkdir(workspace);
    await symlink(outside, path.join(workspace, "linked"));
    let deep = workspace;
    for (let i = 0; i < 10; i++) deep = path.join(deep, `d${i}`);
    const deepTemp = path.join(deep, ".b.tandem-999999999-00000000.tmp");
    await touch(deepTemp);

    expect(await removeLeftoverTempFiles([workspace], { maxFolders: 5 })).toEqual({ removed: [], complete: false });
    expect(await removeLeftoverTempFiles([workspace])).toEqual({ removed: [deepTemp], complete: true });
    expect(existsSync(outsideTemp)).toBe(true);
  });
});
