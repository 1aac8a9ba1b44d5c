/**
 * The files of a repository's git folder that git obeys and that git itself never writes in a
 * main repository: `commondir` and `gitdir` (where git then reads its config and hooks),
 * `config.worktree`, `info/attributes` (which diff and filter drivers run), and
 * `objects/info/alternates`; and in each submodule's and worktree's git folder, the same plus its
 * `config` and hooks. The sandbox keeps `.git/config` and `.git/hooks` read-only by a mount, and
 * those of these that exist; a missing one cannot be (a placeholder for a missing `commondir`
 * makes every git fail), so a sandboxed command's changes to them are undone once it ends, and
 * the command's result says so. A
 * person's git that runs while the command still runs could obey them meanwhile.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** Relative to a git folder. Those that exist are also mounted read-only (protected-locations.ts); a missing one cannot be. */
export const GIT_OBEYED_FILES = ["commondir", "gitdir", "config.worktree", "info/attributes", "objects/info/alternates"] as const;
const OBEYED = GIT_OBEYED_FILES;
/** In a submodule's or worktree's own git folder (under `modules/` and `worktrees/`), git's own writes aside. */
const OBEYED_NESTED = ["config", "config.worktree", "info/attributes", "commondir"];
/** Submodules nest: `modules/a/modules/b`. */
const MAX_NESTING = 3;

/** A watched file's content, null where there was none, "other" where something not a plain file is (a link, a folder). */
type Entry = Buffer | null | "other";

export interface GitControlSnapshot {
  readonly files: ReadonlyMap<string, Entry>;
  /** The submodules' and worktrees' git folders that existed: a command's new ones are new repositories, left as made. */
  readonly nested: ReadonlySet<string>;
}

/** The watched files of these git folders (the workspace's `.git`, nested repositories'), as they are now. */
export function snapshotGitControl(gitDirs: readonly string[]): GitControlSnapshot {
  const files = new Map<string, Entry>();
  const nestedDirs = new Set<string>();
  for (const gitDir of gitDirs) {
    if (!isFolder(gitDir)) continue;
    for (const file of OBEYED) files.set(path.join(gitDir, file), entryOf(path.join(gitDir, file)));
    for (const nested of nestedGitDirs(gitDir, 0)) {
      nestedDirs.add(nested);
      for (const file of OBEYED_NESTED) files.set(path.join(nested, file), entryOf(path.join(nested, file)));
      const hooks = path.join(nested, "hooks");
      for (const hook of listFolder(hooks)) files.set(path.join(hooks, hook), entryOf(path.join(hooks, hook)));
    }
  }
  return { files, nested: nestedDirs };
}

/**
 * After the command: every watched file put back as it was (a new one removed, a new hook in a
 * nested git folder that was there before too). Returns the paths it put back; never throws.
 * What was not a plain file before (a link, a folder) is not git's to obey as a file: left alone.
 */
export function restoreGitControl(gitDirs: readonly string[], before: GitControlSnapshot): string[] {
  const after = snapshotGitControl(gitDirs);
  const changed: string[] = [];
  const restore = (file: string, was: Entry | undefined, now: Entry | undefined) => {
    if (was === "other" || same(was ?? null, now ?? null)) return;
    if (put(file, was ?? null)) changed.push(file);
  };
  for (const [file, now] of after.files) {
    const was = before.files.get(file);
    // A file new to the watch: only in a nested git folder that was there (a hook made in it).
    if (was === undefined && !before.nested.has(nestedFolderOf(file))) continue;
    restore(file, was, now);
  }
  for (const [file, was] of before.files) if (!after.files.has(file)) restore(file, was, null);
  return changed;
}

/** The nested git folder a watched file belongs to (`…/modules/x` for `…/modules/x/hooks/pre-commit`). */
function nestedFolderOf(file: string): string {
  const parent = path.dirname(file);
  return path.basename(parent) === "hooks" ? path.dirname(parent) : parent;
}

/** The git folders a command could change: the roots' `.git` folders and those of repositories nested inside (from the walk's read-only paths). */
export function gitDirsOf(roots: readonly string[], readOnly: readonly string[]): string[] {
  const dirs = new Set(roots.map((root) => path.join(root, ".git")));
  for (const p of readOnly) if (path.basename(p) === "config" && path.basename(path.dirname(p)) === ".git") dirs.add(path.dirname(p));
  return [...dirs];
}

function nestedGitDirs(gitDir: string, depth: number): string[] {
  if (depth >= MAX_NESTING) return [];
  const found: string[] = [];
  for (const kind of ["modules", "worktrees"]) {
    const parent = path.join(gitDir, kind);
    for (const name of listFolder(parent)) {
      const nested = path.join(parent, name);
      if (!isFolder(nested)) continue;
      found.push(nested, ...nestedGitDirs(nested, depth + 1));
    }
  }
  return found;
}

function entryOf(file: string): Entry {
  try {
    return lstatSync(file).isFile() ? readFileSync(file) : "other";
  } catch {
    return null;
  }
}

/** Writes `content` back (null: removes what is there). False when it could not. */
function put(file: string, content: Buffer | null): boolean {
  try {
    rmSync(file, { recursive: true, force: true });
    if (content !== null) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    return true;
  } catch {
    return existsSync(file) === (content !== null);
  }
}

function same(a: Entry, b: Entry): boolean {
  return a instanceof Buffer && b instanceof Buffer ? a.equals(b) : a === b;
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function isFolder(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
