/**
 * Names that are not UTF-8 (security issue 29): a Latin-1 `caf\xe9.txt` is saved, listed and
 * restored like any other file. Its bytes pass from git to git and to the file system as they
 * are; only what is shown to people writes the stray byte as `\xe9`.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointStore, checkpointStoreSize, cleanCheckpointStore } from "../../src/core/checkpoints";
import { shadowLocation } from "../../src/core/checkpoints/shadow-location";
import { tempFolder, writeFiles } from "./helpers";

let dir: string;
let cleanup: () => void;
let workspace: string;
let storageRoot: string;

beforeEach(() => {
  ({ dir, cleanup } = tempFolder("non-utf8"));
  workspace = path.join(dir, "workspace");
  storageRoot = path.join(dir, "storage");
  mkdirSync(workspace);
});
afterEach(() => cleanup());

/** `caf\xe9.txt` in Latin-1: e9 is not UTF-8. */
const CAFE = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]);
/** How the store shows that name. */
const CAFE_SHOWN = "caf\\xe9.txt";

/** A path below the workspace as bytes: `parts` joined with "/" (strings as UTF-8). */
function at(...parts: (string | Buffer)[]): Buffer {
  const relative = Buffer.concat(parts.flatMap((p, i) => [...(i > 0 ? [Buffer.from("/")] : []), Buffer.isBuffer(p) ? p : Buffer.from(p)]));
  return Buffer.concat([Buffer.from(`${workspace}/`), relative]);
}

/** The names in a workspace folder, as bytes in hex (readdir as strings would hide the difference). */
function namesIn(folder: Buffer | string): string[] {
  return readdirSync(folder, { encoding: "buffer" })
    .map((name) => name.toString("hex"))
    .sort();
}

/** The paths a checkpoint holds, as their bytes in hex, with their modes. */
function checkpointHolds(hash: string): string[] {
  const { gitDir } = shadowLocation(storageRoot, workspace);
  const output = execFileSync("git", [`--git-dir=${gitDir}`, "ls-tree", "-r", "-z", hash], { env: { PATH: process.env.PATH ?? "", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
  const entries: string[] = [];
  for (let start = 0; start < output.length; ) {
    const end = output.indexOf(0, start);
    const entry = output.subarray(start, end);
    const tab = entry.indexOf(0x09);
    entries.push(`${entry.subarray(0, tab).toString("utf8").split(" ")[0]} ${entry.subarray(tab + 1).toString("hex")}`);
    start = end + 1;
  }
  return entries.sort();
}

const hex = (name: string | Buffer) => Buffer.from(name).toString("hex");

function open(options: { maxFileBytes?: number } = {}): Promise<CheckpointStore> {
  return CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task-1", ...options });
}

describe("names that are not UTF-8", () => {
  it("saves a Latin-1 file, lists it among the changes, and restores it byte for byte after it was changed and deleted", async () => {
    writeFileSync(at(CAFE), "caf\xe9 au lait\n", "latin1");
    writeFiles(workspace, { "plain.txt": "one\n" });
    // A folder whose name is not UTF-8, with a file in it: made again on the way back.
    mkdirSync(at(Buffer.from("dossier\xe9", "latin1")));
    writeFileSync(at(Buffer.from("dossier\xe9", "latin1"), "inner.txt"), "inner\n");
    const before = { cafe: readFileSync(at(CAFE)), plain: readFileSync(at("plain.txt")), inner: readFileSync(at(Buffer.from("dossier\xe9", "latin1"), "inner.txt")) };
    const namesBefore = namesIn(workspace);

    const store = await open();
    const first = await store.initialize();
    expect(checkpointHolds(first)).toEqual(
      [`100644 ${hex(CAFE)}`, `100644 ${hex(Buffer.from("dossier\xe9/inner.txt", "latin1"))}`, `100644 ${hex("plain.txt")}`].sort(),
    );

    // A change of content first: the diff names the Latin-1 file.
    writeFileSync(at(CAFE), "caf\xe9 noir\n", "latin1");
    writeFiles(workspace, { "plain.txt": "two\n" });
    const second = await store.save("round 1");
    expect(second.changed).toBe(true);
    const changes = await store.changes(first, second.hash);
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      [CAFE_SHOWN, "modified"],
      ["plain.txt", "modified"],
    ]);
    expect(changes[0]?.binary).toBe(false);

    // Then deleted, with the folder: both come back from the first checkpoint, byte for byte.
    rmSync(at(CAFE));
    rmSync(at(Buffer.from("dossier\xe9", "latin1")), { recursive: true });
    writeFiles(workspace, { "plain.txt": "three\n" });
    const third = await store.save("round 2");
    expect(checkpointHolds(third.hash)).toEqual([`100644 ${hex("plain.txt")}`]);
    expect((await store.changes(second.hash, third.hash)).map((c) => [c.path, c.status])).toEqual([
      [CAFE_SHOWN, "deleted"],
      ["dossier\\xe9/inner.txt", "deleted"],
      ["plain.txt", "modified"],
    ]);

    const restored = await store.restoreFiles(first);
    expect(restored.skipped).toEqual([]);
    expect([...restored.written].sort()).toEqual([CAFE_SHOWN, "dossier\\xe9/inner.txt", "plain.txt"]);
    expect(namesIn(workspace)).toEqual(namesBefore);
    expect(readFileSync(at(CAFE))).toEqual(before.cafe);
    expect(readFileSync(at("plain.txt"))).toEqual(before.plain);
    expect(readFileSync(at(Buffer.from("dossier\xe9", "latin1"), "inner.txt"))).toEqual(before.inner);
    // Nothing differs from the first checkpoint now, and the restore's own checkpoint is its tree.
    expect(await store.changes(first)).toEqual([]);
    expect((await store.save("after")).changed).toBe(false);
  });

  it("rewrites a changed Latin-1 file in place and deletes one added since, and the diff to the workspace names both", async () => {
    writeFileSync(at(CAFE), "first\n");
    writeFiles(workspace, { "plain.txt": "one\n" });
    const store = await open();
    const first = await store.initialize();

    const added = Buffer.from("nouveau\xe9.txt", "latin1");
    writeFileSync(at(CAFE), "second, longer than the first\n");
    writeFileSync(at(added), "added\n");
    const inode = lstatSync(at(CAFE)).ino;
    await store.save("round 1");
    expect((await store.changes(first)).map((c) => [c.path, c.status, c.before, c.after])).toEqual([
      [CAFE_SHOWN, "modified", "first\n", "second, longer than the first\n"],
      ["nouveau\\xe9.txt", "added", undefined, "added\n"],
    ]);

    const restored = await store.restoreFiles(first);
    expect(restored).toEqual({ written: [CAFE_SHOWN], deleted: ["nouveau\\xe9.txt"], skipped: [] });
    expect(readFileSync(at(CAFE), "utf8")).toBe("first\n");
    expect(lstatSync(at(CAFE)).ino).toBe(inode);
    expect(namesIn(workspace)).toEqual([hex(CAFE), hex("plain.txt")].sort());
  });

  it("restores a link whose target is not UTF-8 as the same bytes", async () => {
    writeFileSync(at(CAFE), "target\n");
    symlinkSync(CAFE, at("link"));
    const store = await open();
    const first = await store.initialize();
    expect(checkpointHolds(first)).toEqual([`100644 ${hex(CAFE)}`, `120000 ${hex("link")}`].sort());
    rmSync(at("link"));
    await store.save("round 1");
    await store.restoreFiles(first);
    expect(readlinkSync(at("link"), { encoding: "buffer" })).toEqual(CAFE);
    expect(readFileSync(at("link"), "utf8")).toBe("target\n");
  });

  it("applies the size limit, LFS, Tandem's ignore files and nested repositories to Latin-1 names", async () => {
    const big = Buffer.from("gros\xe9.dat", "latin1");
    const lfs = Buffer.from("vid\xe9o.mp4", "latin1");
    const ignored = Buffer.from("secr\xe9t.log", "latin1");
    const nested = Buffer.from("imbriqu\xe9", "latin1");
    writeFileSync(at(CAFE), "kept\n");
    writeFileSync(at(big), Buffer.alloc(2000, 1));
    writeFileSync(at(lfs), "pretend LFS\n");
    writeFiles(workspace, { ".gitattributes": "*.mp4 filter=lfs diff=lfs merge=lfs -text\n" });
    // A pattern written in Latin-1, as a person's editor might save it.
    writeFileSync(at(".tandemignore"), Buffer.concat([ignored, Buffer.from("\n")]));
    writeFileSync(at(ignored), "kept out by .tandemignore\n");
    // Made under a UTF-8 name (a process's arguments are text) and renamed to the Latin-1 one.
    const madeAt = path.join(dir, "nested");
    mkdirSync(madeAt);
    execFileSync("git", ["init", "-q"], { cwd: madeAt, env: { PATH: process.env.PATH ?? "", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
    renameSync(madeAt, at(nested));
    writeFileSync(at(nested, "inside.txt"), "the nested repository's\n");
    // More files than update-index takes one by one: the first checkpoint goes through `git add -A`.
    for (let i = 0; i < 210; i++) writeFileSync(at(`f${i}.txt`), `${i}\n`);

    const store = await open({ maxFileBytes: 1000 });
    const first = await store.initialize();
    const held = checkpointHolds(first);
    expect(held).toContain(`100644 ${hex(CAFE)}`);
    expect(held).toContain(`100644 ${hex(".tandemignore")}`);
    for (const kept of [big, lfs, ignored]) expect(held.filter((e) => e.endsWith(` ${hex(kept)}`))).toEqual([]);
    expect(held.filter((e) => e.includes(` ${hex(nested)}`))).toEqual([]);
    expect(held).toHaveLength(210 + 3);

    // The same rules on a later save, whose few new files go through update-index.
    const big2 = Buffer.from("gros2\xe9.dat", "latin1");
    const lfs2 = Buffer.from("vid\xe9o2.mp4", "latin1");
    const cafe2 = Buffer.from("caf\xe92.txt", "latin1");
    writeFileSync(at(big2), Buffer.alloc(2000, 1));
    writeFileSync(at(lfs2), "pretend LFS\n");
    writeFileSync(at(cafe2), "kept too\n");
    writeFileSync(at(nested, "inside2.txt"), "more\n");
    const second = await store.save("round 1");
    const heldThen = checkpointHolds(second.hash);
    expect(heldThen).toContain(`100644 ${hex(cafe2)}`);
    for (const kept of [big2, lfs2]) expect(heldThen.filter((e) => e.endsWith(` ${hex(kept)}`))).toEqual([]);
    expect(heldThen.filter((e) => e.includes(` ${hex(nested)}`))).toEqual([]);
    expect(heldThen).toHaveLength(210 + 4);
  });

  it("counts and cleans names in the store folder that are not UTF-8", async () => {
    writeFiles(workspace, { "plain.txt": "one\n" });
    await (await open()).initialize();
    const { folder } = shadowLocation(storageRoot, workspace);
    const before = await checkpointStoreSize(storageRoot);
    const inFolder = (...names: Buffer[]) => Buffer.concat([Buffer.from(folder), ...names.flatMap((name) => [Buffer.from("/"), name])]);
    writeFileSync(inFolder(CAFE), Buffer.alloc(1 << 20, 1));
    mkdirSync(inFolder(Buffer.from("dossier\xe9", "latin1")));
    writeFileSync(inFolder(Buffer.from("dossier\xe9", "latin1"), Buffer.from("inner")), Buffer.alloc(1 << 20, 2));
    expect((await checkpointStoreSize(storageRoot)) - before).toBeGreaterThanOrEqual(2 << 20);
    await cleanCheckpointStore(storageRoot);
    expect(readdirSync(storageRoot)).toEqual([]);
  });
});
