/**
 * Round trips: a task edits, adds and deletes files over several saves (text, binary, modes,
 * symlinks, a file turning into a folder and back); `changes()` names exactly what differs, with
 * both contents; restoring any checkpoint, in any order, gives exactly that checkpoint's files.
 * A restore of hundreds of files at once (written many at a time) gives the same: every deletion,
 * mode, link and byte, files rewritten in place, and an index that is the checkpoint's tree.
 * Also: an unchanged save makes no commit, initialize resumes, and tasks keep apart.
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointError, CheckpointStore, type CheckpointChange } from "../../src/core/checkpoints";
import { prng } from "../support/prng";
import { fingerprint, shadowGit, tempFolder, writeFiles } from "./helpers";

let dir: string;
let cleanup: () => void;
let workspace: string;
let storageRoot: string;

beforeEach(() => {
  ({ dir, cleanup } = tempFolder("roundtrip"));
  workspace = path.join(dir, "workspace");
  storageRoot = path.join(dir, "storage");
  mkdirSync(workspace);
});
afterEach(() => cleanup());

function open(taskId = "task-1"): Promise<CheckpointStore> {
  return CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId });
}

/** The tracked state of the workspace: files and links with modes and hashes (folders alone are not tracked). */
function trackedState(): Record<string, string> {
  const all = fingerprint(workspace, { skip: (p) => p === "node_modules" || p === "ignored.txt" });
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== "folder"));
}

/** The contents of the workspace's tracked files as text (links: their target). */
function contents(): Map<string, Buffer> {
  const map = new Map<string, Buffer>();
  for (const relative of Object.keys(trackedState())) {
    const full = path.join(workspace, relative);
    map.set(relative, lstatSync(full).isSymbolicLink() ? Buffer.from(readlinkSync(full)) : readFileSync(full));
  }
  return map;
}

/** What changes() should say between two recorded states. */
function expectedChanges(before: Map<string, Buffer>, after: Map<string, Buffer>, modes: { before: Record<string, string>; after: Record<string, string> }): Partial<CheckpointChange>[] {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths.flatMap((p) => {
    const a = before.get(p);
    const b = after.get(p);
    if (a && b && a.equals(b) && modes.before[p] === modes.after[p]) return [];
    const binary = (a?.includes(0) ?? false) || (b?.includes(0) ?? false);
    const text = (x: Buffer | undefined) => (x === undefined || binary ? undefined : x.toString("utf8"));
    return [{ path: p, status: a === undefined ? "added" : b === undefined ? "deleted" : "modified", before: text(a), after: text(b), binary }];
  });
}

describe("checkpoint round trips", () => {
  // Many git processes (six saves, twelve diffs, nine restores): 1.2 s on an idle machine, over 20 s once on a loaded CI one.
  it("restores every checkpoint exactly, in any order, and changes() says what differs", async () => {
    const random = prng(Number(process.env.CHECKPOINT_SEED ?? 14));
    writeFiles(workspace, {
      "README.md": "# readme\n",
      "src/a.ts": "export const a = 1;\n",
      "src/b.ts": "export const b = 2;\n",
      "src/deep/c.ts": "c\n",
      "bin/tool.sh": "#!/bin/sh\necho tool\n",
      "image.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
      "ignored.txt": "ignored\n",
      ".gitignore": "ignored.txt\n",
      "node_modules/x/index.js": "dep\n",
    });
    chmodSync(path.join(workspace, "bin/tool.sh"), 0o755);
    symlinkSync("src/a.ts", path.join(workspace, "link-a"));

    const store = await open();
    const hashes = [await store.initialize()];
    const withFolders = fingerprint(workspace);
    const states = [trackedState()];
    const bodies = [contents()];
    const rounds: ((i: number) => void)[] = [
      (i) => writeFiles(workspace, { "src/a.ts": `export const a = ${i};\n`, "src/new/file.ts": "new\n" }),
      () => rmSync(path.join(workspace, "src/b.ts")),
      () => {
        writeFiles(workspace, { "image.png": Buffer.from([0x89, 0x50, 0, 9, 9, 9]), "data.bin": Buffer.from([0, 0, 1]) });
        chmodSync(path.join(workspace, "bin/tool.sh"), 0o644);
        chmodSync(path.join(workspace, "src/deep/c.ts"), 0o755);
      },
      () => {
        rmSync(path.join(workspace, "link-a"));
        symlinkSync("src/deep", path.join(workspace, "link-a")); // retargeted, now to a folder
        symlinkSync("../nowhere", path.join(workspace, "dangling"));
      },
      () => {
        // A file becomes a folder, a folder becomes a file.
        rmSync(path.join(workspace, "README.md"));
        writeFiles(workspace, { "README.md/inside.md": "inside\n" });
        rmSync(path.join(workspace, "src/new"), { recursive: true });
        writeFiles(workspace, { "src/new": "now a file\n" });
      },
      (i) => writeFiles(workspace, { [`src/r${i}.ts`]: `round ${i} ${random()}\n`, "src/a.ts": "", "extra/deeper/file.ts": "in new folders\n" }),
    ];
    for (const [i, round] of rounds.entries()) {
      round(i + 1);
      const saved = await store.save(`round ${i + 1}`);
      expect(saved.changed).toBe(true);
      const previous = { hash: hashes.at(-1) as string, state: states.at(-1) as Record<string, string>, body: bodies.at(-1) as Map<string, Buffer> };
      hashes.push(saved.hash);
      states.push(trackedState());
      bodies.push(contents());
      const expected = expectedChanges(previous.body, bodies.at(-1) as Map<string, Buffer>, { before: previous.state, after: states.at(-1) as Record<string, string> });
      const between = await store.changes(previous.hash, saved.hash);
      expect(between.map(({ path: p, status, before, after, binary }) => ({ path: p, status, before, after, binary }))).toEqual(expected);
      // Against the workspace now, which equals the new checkpoint, the same; changedPaths names the same paths.
      expect(await store.changes(previous.hash)).toEqual(between);
      expect(await store.changedPaths(previous.hash)).toEqual(between.map((change) => change.path));
    }
    // Restore each, in an order no round had.
    const order = hashes.map((_, i) => i).sort(() => random() - 0.5);
    for (const i of [...order, 0, hashes.length - 1]) {
      await store.restoreFiles(hashes[i] as string);
      expect(trackedState(), `after restoring checkpoint ${i}`).toEqual(states[i]);
      expect(await store.changes(hashes[i] as string)).toEqual([]);
      // Never touched: the ignored file and the dependency folder.
      expect(readFileSync(path.join(workspace, "ignored.txt"), "utf8")).toBe("ignored\n");
      expect(readFileSync(path.join(workspace, "node_modules/x/index.js"), "utf8")).toBe("dep\n");
    }
    // Back at the start, no folder a later round made is left behind, empty.
    await store.restoreFiles(hashes[0] as string);
    expect(fingerprint(workspace)).toEqual(withFolders);
  }, 90_000);

  it("restores a change set of hundreds of files exactly: deletions, modes, links, sizes both ways, folders made and removed", async () => {
    const random = prng(7);
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
    const many = Array.from({ length: 600 }, (_, i) => `many/dir${i % 30}/file${i}.txt`);
    writeFiles(workspace, {
      ...Object.fromEntries(many.map((p, i) => [p, `v0 ${i}\n`.repeat(1 + (i % 50))])),
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`bin/run${i}.sh`, `#!/bin/sh\necho ${i}\n`])),
      ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`gone/deep/er/x${i}.txt`, `x${i}\n`])),
      "private/secret.txt": "p0\n",
      "big.bin": bytes(3 * 1024 * 1024),
      "small.txt": "short\n",
      "empty.txt": "",
      "becomes-folder": "a file\n",
    });
    for (let i = 0; i < 40; i++) chmodSync(path.join(workspace, `bin/run${i}.sh`), 0o755);
    chmodSync(path.join(workspace, "private/secret.txt"), 0o640);
    mkdirSync(path.join(workspace, "links"));
    for (let i = 0; i < 40; i++) symlinkSync(`../many/dir0/file${i * 30}.txt`, path.join(workspace, `links/l${i}`));
    const store = await open();
    const first = await store.initialize();
    const initial = fingerprint(workspace);
    const secretInode = lstatSync(path.join(workspace, "private/secret.txt")).ino;

    // Every kind of change, in one round.
    writeFiles(workspace, Object.fromEntries(many.map((p, i) => [p, `v1 ${i}\n`.repeat(1 + ((i * 7) % 50))])));
    for (const p of many.slice(0, 50)) rmSync(path.join(workspace, p));
    for (let i = 0; i < 40; i++) {
      if (i % 2) chmodSync(path.join(workspace, `bin/run${i}.sh`), 0o644);
      else writeFiles(workspace, { [`bin/run${i}.sh`]: `#!/bin/sh\necho changed ${i}\n` });
      rmSync(path.join(workspace, `links/l${i}`));
      symlinkSync("../big.bin", path.join(workspace, `links/l${i}`));
    }
    writeFiles(workspace, { "private/secret.txt": "p1, and longer\n", "big.bin": "tiny\n", "small.txt": bytes(2 * 1024 * 1024), "empty.txt": "now something\n" });
    rmSync(path.join(workspace, "gone"), { recursive: true });
    rmSync(path.join(workspace, "becomes-folder"));
    writeFiles(workspace, { "becomes-folder/inside.txt": "inside\n" });
    writeFiles(workspace, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`added/new${i}/f.txt`, `new ${i}\n`])));
    expect((await store.save("everything changed")).changed).toBe(true);

    const result = await store.restoreFiles(first);
    expect(result.skipped).toEqual([]);
    expect(result.written).toHaveLength(600 + 40 + 40 + 10 + 5);
    expect(result.deleted.sort()).toEqual([...Array.from({ length: 300 }, (_, i) => `added/new${i}/f.txt`), "becomes-folder/inside.txt"].sort());
    // Byte for byte, mode for mode, and no folder left that the round made (fingerprint lists folders).
    expect(fingerprint(workspace)).toEqual(initial);
    expect(lstatSync(path.join(workspace, "private/secret.txt")).ino).toBe(secretInode); // rewritten in place
    // The index is the checkpoint's tree, and the store sees nothing to record.
    expect(shadowGit(storageRoot, workspace, ["diff-index", "--cached", "--name-only", first])).toBe("");
    expect(await store.changes(first)).toEqual([]);
    const settled = await store.save("after the restore");
    expect(settled.changed).toBe(false);
    expect(shadowGit(storageRoot, workspace, ["rev-parse", `${settled.hash}^{tree}`])).toBe(shadowGit(storageRoot, workspace, ["rev-parse", `${first}^{tree}`]));
  }, 60_000);

  it("sees a change of the same size made within the second of a restore", async () => {
    writeFiles(workspace, { "a.txt": "1\n", "b.txt": "1\n" });
    const store = await open();
    const first = await store.initialize();
    for (let i = 1; i <= 3; i++) {
      writeFiles(workspace, { "a.txt": "2\n", "b.txt": `${i + 1}\n` });
      await store.save(`round ${i}`);
      while (Date.now() % 1000 > 300) await new Promise((resolve) => setTimeout(resolve, 5));
      await store.restoreFiles(first);
      writeFileSync(path.join(workspace, "a.txt"), "3\n"); // the same size, at once: the index's stat data cannot tell
      const saved = await store.save(`changed at once ${i}`);
      expect(saved.changed, `try ${i}`).toBe(true);
      expect(shadowGit(storageRoot, workspace, ["cat-file", "blob", `${saved.hash}:a.txt`])).toBe("3\n");
    }
  });

  it("sees a change of the same size made within the second of the save before (git's racy-timestamp case)", async () => {
    const store = await open();
    // Whether git would have smudged the entry anyway varies with timing: several tries, so that
    // copying the index (which gives it a newer mtime than its entries) fails this nearly always.
    for (let i = 1; i <= 6; i++) {
      // Write, save and change again within one second; the next save starts in a later one.
      while (Date.now() % 1000 > 100) await new Promise((resolve) => setTimeout(resolve, 5));
      writeFiles(workspace, { "a.txt": "1\n" });
      await store.save(`write ${i}`);
      writeFiles(workspace, { "a.txt": "2\n" });
      const second = Math.floor(Date.now() / 1000);
      while (Math.floor(Date.now() / 1000) === second) await new Promise((resolve) => setTimeout(resolve, 20));
      const saved = await store.save(`change ${i}`);
      expect(saved.changed, `change ${i}`).toBe(true);
      expect(shadowGit(storageRoot, workspace, ["cat-file", "blob", `${saved.hash}:a.txt`])).toBe("2\n");
    }
  });

  it("makes no commit when nothing changed, and resumes a task's checkpoints when opened again", async () => {
    writeFiles(workspace, { "a.txt": "a\n" });
    const store = await open();
    const first = await store.initialize();
    expect(await store.initialize()).toBe(first);
    expect(await store.save("nothing")).toEqual({ hash: first, changed: false });
    const reopened = await open();
    expect(await reopened.initialize()).toBe(first);
    writeFiles(workspace, { "a.txt": "b\n" });
    const second = await reopened.save("edit");
    expect(shadowGit(storageRoot, workspace, ["rev-list", "--count", "refs/tandem/task-1"]).trim()).toBe("2");
    expect(shadowGit(storageRoot, workspace, ["log", "-1", "--format=%s", second.hash]).trim()).toBe("edit");
  });

  it("keeps tasks apart on one shared store: each its own ref, its own 'nothing changed'", async () => {
    writeFiles(workspace, { "a.txt": "1\n" });
    const one = await open("one");
    const two = await open("two");
    const oneFirst = await one.initialize();
    writeFiles(workspace, { "a.txt": "2\n" });
    const twoFirst = await two.initialize();
    expect(twoFirst).not.toBe(oneFirst);
    // The workspace matches task two's latest, not task one's: one records a change, two does not.
    expect((await one.save("one sees it")).changed).toBe(true);
    expect(await two.save("two saw it already")).toEqual({ hash: twoFirst, changed: false });
    expect(shadowGit(storageRoot, workspace, ["for-each-ref", "--format=%(refname)", "refs/tandem"]).trim().split("\n")).toEqual(["refs/tandem/one", "refs/tandem/two"]);
  });

  it("reports errors as CheckpointErrors naming the operation and the workspace", async () => {
    writeFiles(workspace, { "a.txt": "1\n" });
    const store = await open();
    await store.initialize();
    const failure = await store.changes("0123456789012345678901234567890123456789").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CheckpointError);
    expect((failure as Error).message).toBe(`Could not compare checkpoints for ${workspace}: there is no checkpoint 0123456789012345678901234567890123456789 in the store`);
    await expect(store.restoreFiles("--output=/tmp/x")).rejects.toThrow(/restore a checkpoint .*is not a checkpoint hash/);
    await expect(CheckpointStore.open({ storageRoot, workspaceRoot: path.join(dir, "missing"), taskId: "t" })).rejects.toThrow(/Could not open checkpoints for .*missing: .*ENOENT/);
    await expect(CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "../x" })).rejects.toThrow(/task id/);
  });
});
