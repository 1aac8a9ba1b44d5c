/**
 * Shared by the checkpoint suites: throwaway folders, a person's real git repository (made with the
 * machine's git, not the store's code), fingerprints of folders to compare before and after, and
 * a look into a shadow repository with plain git.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { shadowLocation } from "../../src/core/checkpoints/shadow-location";

/** A fresh folder (real path) removed by the returned cleanup. */
export function tempFolder(prefix: string): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `tandem-ckpt-${prefix}-`)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** git as the person runs it, with a fixed identity and no global config of this machine. */
export function personGit(cwd: string, args: string[], options: { input?: string } = {}): string {
  return execFileSync("git", args, {
    cwd,
    input: options.input,
    encoding: "utf8",
    env: { ...cleanEnv(), GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "P", GIT_AUTHOR_EMAIL: "p@example.invalid", GIT_COMMITTER_NAME: "P", GIT_COMMITTER_EMAIL: "p@example.invalid" },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Writes files (relative path -> content), making folders on the way. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** A repository with history, a branch, a stash, staged and untracked changes, local config and hooks that leave a mark if they ever run. */
export function makePersonRepo(root: string, markerDir: string): void {
  personGit(root, ["init", "-q", "-b", "main"]);
  writeFiles(root, { "README.md": "# project\n", "src/app.ts": "export const app = 1;\n", ".gitignore": "*.log\n" });
  personGit(root, ["add", "-A"]);
  personGit(root, ["commit", "-q", "-m", "first"]);
  personGit(root, ["branch", "feature"]);
  writeFiles(root, { "src/app.ts": "export const app = 2;\n" });
  personGit(root, ["stash", "-q"]);
  writeFiles(root, { "src/staged.ts": "staged\n", "notes.txt": "untracked\n", "debug.log": "ignored\n" });
  personGit(root, ["add", "src/staged.ts"]);
  personGit(root, ["config", "user.name", "Person"]);
  for (const hook of ["pre-commit", "post-commit", "post-checkout", "post-index-change", "reference-transaction"]) {
    const file = path.join(root, ".git", "hooks", hook);
    writeFileSync(file, `#!/bin/sh\necho ran > "${path.join(markerDir, hook)}"\n`, { mode: 0o755 });
  }
}

/** Every entry below `root` (not following links): path -> type, mode and a hash of its bytes (a link: its target). */
export function fingerprint(root: string, options: { skip?: (relative: string) => boolean } = {}): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (relativeFolder: string) => {
    for (const name of readdirSync(path.join(root, relativeFolder)).sort()) {
      const relative = relativeFolder === "" ? name : `${relativeFolder}/${name}`;
      if (options.skip?.(relative)) continue;
      const full = path.join(root, relative);
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) result[relative] = `link ${readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        result[relative] = "folder";
        walk(relative);
      } else result[relative] = `file ${(stats.mode & 0o777).toString(8)} ${stats.size > 50_000_000 ? `size ${stats.size}` : sha(readFileSync(full))}`;
    }
  };
  walk("");
  return result;
}

function sha(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

/** Plain git on a workspace's shadow repository (for looking, never for changing it). */
export function shadowGit(storageRoot: string, workspace: string, args: string[]): string {
  const { gitDir } = shadowLocation(storageRoot, realpathSync(workspace));
  return execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8", env: { ...cleanEnv(), GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" }, maxBuffer: 64 * 1024 * 1024 });
}

/** The paths a checkpoint holds, with their modes: "100644 path". */
export function checkpointEntries(storageRoot: string, workspace: string, hash: string): string[] {
  return shadowGit(storageRoot, workspace, ["ls-tree", "-r", "-z", hash])
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split("\t");
      return `${(meta ?? "").split(" ")[0]} ${file}`;
    });
}

export function checkpointPaths(storageRoot: string, workspace: string, hash: string): string[] {
  return checkpointEntries(storageRoot, workspace, hash).map((entry) => entry.slice(entry.indexOf(" ") + 1));
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith("GIT_")) env[name] = value;
  return env;
}
