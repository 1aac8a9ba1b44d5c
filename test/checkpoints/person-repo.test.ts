/**
 * The person's own repository is never touched: after the store makes, saves and restores
 * checkpoints of a workspace that is a real git repository (history, branches, a stash, staged
 * changes, local config, hooks that leave a mark if they run), its `.git` is byte for byte what it
 * was, its `git status` says the same, and nothing in the workspace was renamed.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/core/checkpoints";
import { checkpointPaths, fingerprint, makePersonRepo, personGit, shadowGit, tempFolder, writeFiles } from "./helpers";

let dir: string;
let cleanup: () => void;
let workspace: string;
let storageRoot: string;
let markers: string;

beforeEach(() => {
  ({ dir, cleanup } = tempFolder("person"));
  workspace = path.join(dir, "workspace");
  storageRoot = path.join(dir, "storage");
  markers = path.join(dir, "markers");
  for (const folder of [workspace, storageRoot, markers]) mkdirSync(folder);
  makePersonRepo(workspace, markers);
});
afterEach(() => cleanup());

/** What the person's git says, without letting status refresh (and so rewrite) their index. */
function personStatus(): string {
  return personGit(workspace, ["--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=all"]);
}

describe("the person's repository", () => {
  it("keeps .git byte-identical and git status unchanged through initialize, save and restore", async () => {
    const gitBefore = fingerprint(path.join(workspace, ".git"));
    const statusBefore = personStatus();
    const stashBefore = personGit(workspace, ["stash", "list"]);

    const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task-1" });
    const first = await store.initialize();
    writeFiles(workspace, { "src/app.ts": "export const app = 3;\n", "src/new.ts": "new\n" });
    rmSync(path.join(workspace, "README.md"));
    const second = await store.save("round 1");
    expect(second.changed).toBe(true);
    await store.changes(first);
    await store.restoreFiles(first);
    await store.save("after restore");

    expect(fingerprint(path.join(workspace, ".git"))).toEqual(gitBefore);
    expect(personStatus()).toBe(statusBefore);
    expect(personGit(workspace, ["stash", "list"])).toBe(stashBefore);
    expect(readdirSync(markers)).toEqual([]); // no hook of the person's ran
    // The person's files went back; their .git never entered the store.
    expect(checkpointPaths(storageRoot, workspace, first).some((p) => p === ".git" || p.startsWith(".git/"))).toBe(false);
  });

  it("renames nothing in the workspace, not even a nested repository's .git", async () => {
    const nested = path.join(workspace, "libs", "nested");
    mkdirSync(nested, { recursive: true });
    personGit(nested, ["init", "-q"]);
    writeFiles(nested, { "lib.ts": "lib\n" });
    personGit(nested, ["add", "-A"]);
    personGit(nested, ["commit", "-q", "-m", "nested"]);
    const before = fingerprint(workspace);

    const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task-1" });
    const first = await store.initialize();
    writeFiles(workspace, { "src/app.ts": "changed\n" });
    await store.save("round 1");
    await store.restoreFiles(first);

    expect(fingerprint(workspace)).toEqual(before);
    expect(existsSync(path.join(nested, ".git_disabled"))).toBe(false);
  });

  it("lets none of the person's global git config steer the store (hooks, filters, signing, fsmonitor, line ends, identity)", async () => {
    const home = path.join(dir, "home");
    const hooks = path.join(home, "hooks");
    mkdirSync(hooks, { recursive: true });
    const marker = (name: string) => `#!/bin/sh\necho ran > "${path.join(markers, name)}"\nexit 1\n`;
    writeFileSync(path.join(home, "program"), marker("program"), { mode: 0o755 });
    for (const hook of ["pre-commit", "post-commit", "reference-transaction", "post-index-change"]) writeFileSync(path.join(hooks, hook), marker(hook), { mode: 0o755 });
    writeFileSync(
      path.join(home, ".gitconfig"),
      [
        "[core]",
        `\thooksPath = ${hooks}`,
        `\tattributesFile = ${path.join(home, "attributes")}`,
        `\tfsmonitor = ${path.join(home, "program")}`,
        "\tautocrlf = true",
        "[commit]",
        "\tgpgSign = true",
        "[gpg]",
        `\tprogram = ${path.join(home, "program")}`,
        "[filter \"evil\"]",
        `\tclean = ${path.join(home, "program")}`,
        "[filter \"lfs\"]",
        `\tclean = ${path.join(home, "program")}`,
        "\trequired = true",
        "[user]",
        "\tuseConfigOnly = true",
        "",
      ].join("\n"),
    );
    writeFileSync(path.join(home, "attributes"), "*.md filter=evil\n");
    writeFiles(workspace, { "crlf.txt": "one\r\ntwo\r\n", ".gitattributes": "*.txt filter=lfs\n" });
    const savedHome = process.env.HOME;
    const savedXdg = process.env.XDG_CONFIG_HOME;
    process.env.HOME = home;
    delete process.env.XDG_CONFIG_HOME;
    try {
      const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "task-1" });
      const first = await store.initialize();
      writeFiles(workspace, { "src/app.ts": "changed\n", "plain.md": "a\r\nb\r\n" });
      const second = await store.save("round 1");
      expect(second.changed).toBe(true);
      expect(readdirSync(markers)).toEqual([]);
      // Stored byte for byte: no CRLF conversion.
      expect(shadowGit(storageRoot, workspace, ["cat-file", "blob", `${second.hash}:plain.md`])).toBe("a\r\nb\r\n");
      expect(checkpointPaths(storageRoot, workspace, first)).toContain("README.md");
    } finally {
      process.env.HOME = savedHome;
      if (savedXdg !== undefined) process.env.XDG_CONFIG_HOME = savedXdg;
    }
  });
});
