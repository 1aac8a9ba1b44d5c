/**
 * What never enters the store, checked in the shadow repository itself (`git ls-tree -r`):
 * .gitignored paths at every level, the workspace's .git/info/exclude, Tandem's ignore files,
 * dependency folders, build outputs and caches, a 1 GB file, LFS patterns, a nested repository
 * and a submodule (no gitlink, their .git untouched), and a symlink loop stored as a link.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/core/checkpoints";
import { checkpointEntries, checkpointPaths, fingerprint, personGit, shadowGit, tempFolder, writeFiles } from "./helpers";

let dir: string;
let cleanup: () => void;
let workspace: string;
let storageRoot: string;

beforeEach(() => {
  ({ dir, cleanup } = tempFolder("exclude"));
  workspace = path.join(dir, "workspace");
  storageRoot = path.join(dir, "storage");
  mkdirSync(workspace);
});
afterEach(() => cleanup());

function open(options: { maxFileBytes?: number } = {}): Promise<CheckpointStore> {
  return CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task-1", ...options });
}

describe("what checkpoints leave out", () => {
  it("keeps ignored, excluded, large, LFS and nested-repository files out, and stores a symlink loop as a link", async () => {
    personGit(workspace, ["init", "-q"]);
    writeFiles(workspace, {
      "src/keep.ts": "keep\n",
      "src/debug.log": "ignored by the root .gitignore\n",
      ".gitignore": "*.log\n",
      "pkg/.gitignore": "generated/\n",
      "pkg/generated/out.ts": "ignored by a nested .gitignore\n",
      "pkg/index.ts": "kept\n",
      "local-only.txt": "excluded by .git/info/exclude\n",
      ".tandemignore": "secrets/\n",
      ".clineignore": "*.private\n",
      "secrets/key.txt": "excluded by .tandemignore\n",
      "notes.private": "excluded by .clineignore\n",
      "node_modules/left-pad/index.js": "module.exports = 1;\n",
      "packages/a/node_modules/dep/index.js": "dep\n",
      "dist/bundle.js": "built\n",
      "__pycache__/x.pyc": "cache\n",
      ".cache/thing": "cache\n",
      "assets/logo.psd": "pretend LFS\n",
      "media/.gitattributes": "*.mp4 filter=lfs diff=lfs merge=lfs -text\n",
      "media/clip.mp4": "pretend LFS too\n",
      "media/readme.md": "not LFS\n",
      ".gitattributes": "*.psd filter=lfs diff=lfs merge=lfs -text\n",
      "small.bin": Buffer.alloc(1000, 1),
    });
    writeFileSync(path.join(workspace, ".git", "info", "exclude"), "local-only.txt\n");
    // A 1 GB file costs nothing to make (sparse) and must cost nothing to skip.
    execFileSync("truncate", ["-s", "1G", path.join(workspace, "huge.iso")]);
    symlinkSync(".", path.join(workspace, "loop"));
    symlinkSync("src/keep.ts", path.join(workspace, "link-to-keep"));
    // A nested repository, and a real submodule.
    const nested = path.join(workspace, "vendor-lib");
    mkdirSync(nested);
    personGit(nested, ["init", "-q"]);
    writeFiles(nested, { "lib.ts": "nested\n" });
    personGit(nested, ["add", "-A"]);
    personGit(nested, ["commit", "-q", "-m", "nested"]);
    const upstream = path.join(dir, "upstream");
    mkdirSync(upstream);
    personGit(upstream, ["init", "-q"]);
    writeFiles(upstream, { "sub.ts": "submodule\n" });
    personGit(upstream, ["add", "-A"]);
    personGit(upstream, ["commit", "-q", "-m", "upstream"]);
    personGit(workspace, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "modules/sub"]);
    const nestedGitBefore = fingerprint(path.join(nested, ".git"));
    const submoduleGitBefore = fingerprint(path.join(workspace, ".git", "modules"));

    const store = await open();
    const started = Date.now();
    const first = await store.initialize();
    expect(Date.now() - started).toBeLessThan(15_000); // not a read of 1 GB (a loose bound for a busy machine)

    const paths = checkpointPaths(storageRoot, workspace, first);
    expect(paths.sort()).toEqual(
      [".clineignore", ".gitattributes", ".gitignore", ".gitmodules", ".tandemignore", "link-to-keep", "loop", "media/.gitattributes", "media/readme.md", "pkg/.gitignore", "pkg/index.ts", "small.bin", "src/keep.ts"].sort(),
    );
    const entries = checkpointEntries(storageRoot, workspace, first);
    expect(entries).toContain("120000 loop");
    expect(entries.some((e) => e.startsWith("160000"))).toBe(false); // no gitlink
    expect(shadowGit(storageRoot, workspace, ["cat-file", "blob", `${first}:loop`])).toBe(".");
    expect(fingerprint(path.join(nested, ".git"))).toEqual(nestedGitBefore);
    expect(fingerprint(path.join(workspace, ".git", "modules"))).toEqual(submoduleGitBefore);

    // Saving again finds nothing new: the kept-out paths stay out without being recorded.
    expect(await store.save("again")).toEqual({ hash: first, changed: false });
    // And the objects of what was kept out never entered the store at all.
    const objects = shadowGit(storageRoot, workspace, ["cat-file", "--batch-all-objects", "--batch-check"]);
    expect(objects).not.toMatch(/ blob 1073741824/);
  });

  it("honours the person's global excludes: git's default file, or the one their config names", async () => {
    const home = path.join(dir, "home");
    writeFiles(home, { ".config/git/ignore": "*.swp\n", "custom-ignore": "*.bak\n" });
    writeFiles(workspace, { "a.ts": "a\n", "a.ts.swp": "swap\n", "a.ts.bak": "backup\n" });
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    process.env.HOME = home;
    delete process.env.XDG_CONFIG_HOME;
    try {
      const first = await (await open()).initialize();
      expect(checkpointPaths(storageRoot, workspace, first)).toEqual(["a.ts", "a.ts.bak"]);
      writeFileSync(path.join(home, ".gitconfig"), `[core]\n\texcludesFile = ${path.join(home, "custom-ignore")}\n`);
      const second = await (await open()).save("with the person's excludes file");
      expect(checkpointPaths(storageRoot, workspace, second.hash)).toEqual(["a.ts", "a.ts.swp"]);
    } finally {
      process.env.HOME = saved.HOME;
      if (saved.XDG_CONFIG_HOME !== undefined) process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
    }
  });

  it("keeps files out that became large or ignored after they were tracked", async () => {
    writeFiles(workspace, { "data.csv": "a,b\n", "app.log": "log\n", "src/a.ts": "a\n" });
    const store = await open({ maxFileBytes: 1000 });
    const first = await store.initialize();
    expect(checkpointPaths(storageRoot, workspace, first)).toEqual(["app.log", "data.csv", "src/a.ts"]);

    writeFiles(workspace, { "data.csv": "x".repeat(5000), ".gitignore": "*.log\n" });
    const second = await store.save("grown");
    expect(checkpointPaths(storageRoot, workspace, second.hash)).toEqual([".gitignore", "src/a.ts"]);

    writeFiles(workspace, { ".tandemignore": "src/\n" });
    const third = await store.save("tandemignore");
    expect(checkpointPaths(storageRoot, workspace, third.hash)).toEqual([".gitignore", ".tandemignore"]);

    // The same through the bulk path (hundreds of changes at once): a tracked file grows too
    // large, a nested repository and a large new file appear among 300 new files.
    writeFiles(workspace, { "tracked.txt": "small\n" });
    await store.save("one more tracked file");
    writeFiles(workspace, { "tracked.txt": "y".repeat(5000), "new-big.bin": "z".repeat(5000) });
    writeFiles(workspace, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`many/f${i}.txt`, `${i}\n`])));
    mkdirSync(path.join(workspace, "repo"));
    personGit(path.join(workspace, "repo"), ["init", "-q"]);
    writeFiles(workspace, { "repo/inside.txt": "nested\n" });
    const bulk = await store.save("bulk");
    const paths = checkpointPaths(storageRoot, workspace, bulk.hash);
    expect(paths).toHaveLength(302);
    expect(paths.filter((p) => !p.startsWith("many/"))).toEqual([".gitignore", ".tandemignore"]);
    expect(checkpointEntries(storageRoot, workspace, bulk.hash).some((e) => e.startsWith("160000"))).toBe(false);
  });

  it("takes a tracked file out when a .gitattributes sends it to LFS later", async () => {
    writeFiles(workspace, { "model.bin": "weights\n", "a.ts": "a\n" });
    const store = await open();
    const first = await store.initialize();
    expect(checkpointPaths(storageRoot, workspace, first)).toEqual(["a.ts", "model.bin"]);
    writeFiles(workspace, { "sub/.gitattributes": "*.ts filter=lfs\n", "sub/b.ts": "b\n", ".gitattributes": "*.bin filter=lfs\n" });
    const second = await store.save("lfs now");
    expect(checkpointPaths(storageRoot, workspace, second.hash)).toEqual([".gitattributes", "a.ts", "sub/.gitattributes"]);
  });

  it("records files byte for byte whatever .gitattributes ask (eol, text, ident, encoding)", async () => {
    writeFiles(workspace, {
      ".gitattributes": "* text=auto eol=crlf\n*.id ident\n*.utf16 working-tree-encoding=UTF-16\n",
      "lf.txt": "one\ntwo\n",
      "crlf.txt": "one\r\ntwo\r\n",
      "file.id": "$Id: 0123456789abcdef $\n",
      "text.utf16": "\uFEFFhello",
    });
    const store = await open();
    const first = await store.initialize();
    for (const file of ["lf.txt", "crlf.txt", "file.id", "text.utf16"]) {
      expect(shadowGit(storageRoot, workspace, ["cat-file", "blob", `${first}:${file}`]), file).toBe(personFile(file));
    }
  });

  it("does not walk into excluded folders (their access times stay as they were)", async (context) => {
    // Reading a folder updates its access time when it is older than its change time (relatime).
    const probe = path.join(dir, "probe");
    mkdirSync(probe);
    const past = new Date("1971-01-01T00:00:00Z");
    utimesSync(probe, past, new Date());
    readdirSync(probe);
    if (statSync(probe).atimeMs === past.getTime()) context.skip(); // noatime: nothing to see here

    writeFiles(workspace, { "src/a.ts": "a\n" });
    for (let i = 0; i < 50; i++) writeFiles(workspace, { [`node_modules/p${i}/lib/index.js`]: "x", [`dist/chunk${i}.js`]: "y" });
    const folders = ["node_modules", "node_modules/p7", "node_modules/p7/lib", "dist"].map((f) => path.join(workspace, f));
    for (const folder of folders) utimesSync(folder, past, new Date());

    const store = await open();
    const first = await store.initialize();
    writeFiles(workspace, { "src/b.ts": "b\n" });
    await store.save("round");
    await store.changes(first);
    await store.restoreFiles(first);
    expect(checkpointPaths(storageRoot, workspace, first)).toEqual(["src/a.ts"]);
    for (const folder of folders) expect(statSync(folder).atimeMs, folder).toBe(past.getTime());
  });
});

function personFile(relative: string): string {
  return execFileSync("cat", [path.join(workspace, relative)], { encoding: "utf8" });
}

