/**
 * A breadth-first walk of a folder for list_files: a listing cut at its limit still shows the
 * top levels. It honours .gitignore and the ignore controller, and never goes into dependency,
 * cache or version-control folders (it lists them, but not their contents).
 */
import { readdir, stat } from "node:fs/promises";
import type { Dirent } from "node:fs";
import * as path from "node:path";
import { withTrailingSlash } from "./ignored-path";
import { looksLikeSecretFile } from "../ignore/secret-files";
import { GitignoreChain } from "./gitignore-chain";
import { realLocation } from "../util/real-paths";
import type { PathGuard } from "../ignore/path-guard";

/** Version control's own data (a `.git` file too, in a worktree or submodule): never the project's files. */
export const VCS_FOLDERS: ReadonlySet<string> = new Set([".git", ".hg", ".svn"]);

/** Folders full of other people's code, build caches or VCS data: walking them is noise. */
export const HEAVY_FOLDERS: ReadonlySet<string> = new Set([
  ...VCS_FOLDERS,
  "node_modules",
  "bower_components",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  "target",
  ".gradle",
  ".next",
  ".cache",
]);

/** True when some folder on the path is a heavy one (then the person asked for it). */
export function isInsideHeavyFolder(absolutePath: string): boolean {
  return absolutePath.split(/[\\/]/).some((part) => HEAVY_FOLDERS.has(part));
}

export interface WalkOptions {
  /** The workspace root, where .gitignore rules start. */
  readonly cwd: string;
  readonly start: string;
  readonly recursive: boolean;
  /** At most this many entries; one more found sets `truncated`. */
  readonly limit: number;
  readonly guard: PathGuard;
  readonly signal: AbortSignal;
  /** Leave VCS_FOLDERS out altogether, not even listed (what the @-menu and folder mentions offer). */
  readonly omitVcs?: boolean;
}

export interface WalkEntry {
  readonly absolute: string;
  readonly isFolder: boolean;
  /** For a symlink: where it really lands (it is judged as that too). */
  readonly real?: string;
}

export interface WalkResult {
  readonly entries: WalkEntry[];
  truncated: boolean;
  /** Left out because the ignore file lists them. */
  hiddenByIgnoreFile: number;
  /** Left out because they look like secret files. */
  hiddenSecrets: number;
  /** Folders that could not be read (permissions), with why. */
  readonly unreadable: string[];
}

interface Pending {
  readonly folder: string;
  /** Read when the folder's turn comes, so a cut-off walk reads no .gitignore it won't use. */
  readonly chain: () => Promise<GitignoreChain>;
}

export async function walkFolder(options: WalkOptions): Promise<WalkResult> {
  const result: WalkResult = { entries: [], truncated: false, hiddenByIgnoreFile: 0, hiddenSecrets: 0, unreadable: [] };
  const skipHeavy = !isInsideHeavyFolder(options.start);
  const queue: Pending[] = [{ folder: options.start, chain: () => GitignoreChain.forStart(options.cwd, options.start) }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    options.signal.throwIfAborted();
    const chain = await next.chain();
    const dirents = await readFolder(next.folder, next.folder !== options.start, result);
    for (const dirent of dirents) {
      if (options.omitVcs && VCS_FOLDERS.has(dirent.name)) continue;
      const entry = await classify(next.folder, dirent);
      if (!keep(entry, chain, options.guard, result)) continue;
      if (result.entries.length === options.limit) {
        result.truncated = true;
        return result;
      }
      result.entries.push(entry);
      const walkInto = options.recursive && entry.isFolder && dirent.isDirectory();
      if (walkInto && !(skipHeavy && HEAVY_FOLDERS.has(dirent.name))) {
        queue.push({ folder: entry.absolute, chain: () => chain.enter(entry.absolute) });
      }
    }
  }
  return result;
}

/** Entries sorted by name; an unreadable sub-folder is noted, the start folder's failure thrown. */
async function readFolder(folder: string, tolerate: boolean, result: WalkResult): Promise<Dirent[]> {
  try {
    const dirents = await readdir(folder, { withFileTypes: true });
    return dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if (!tolerate) throw error;
    result.unreadable.push(`${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return [];
  }
}

/**
 * Symlinks count as what they point at (a dangling one as a file) and are judged as their target,
 * but are never walked into: a listing never reaches through a link into another place.
 */
async function classify(folder: string, dirent: Dirent): Promise<WalkEntry> {
  const absolute = path.join(folder, dirent.name);
  if (!dirent.isSymbolicLink()) return { absolute, isFolder: dirent.isDirectory() };
  const target = await stat(absolute).catch(() => undefined);
  const real = realOrUndefined(absolute);
  return { absolute, isFolder: target?.isDirectory() ?? false, ...(real === undefined ? {} : { real }) };
}

function realOrUndefined(link: string): string | undefined {
  try {
    return realLocation(link);
  } catch {
    return undefined; // a link loop: it leads nowhere, and is listed as a file
  }
}

function keep(entry: WalkEntry, chain: GitignoreChain, guard: PathGuard, result: WalkResult): boolean {
  if (chain.isIgnored(entry.absolute, entry.isFolder)) return false;
  const judged = entry.real === undefined ? [entry.absolute] : [entry.absolute, entry.real];
  if (!judged.some((p) => guard.isIgnored(entry.isFolder ? withTrailingSlash(p) : p))) return true;
  if (!entry.isFolder && judged.some((p) => looksLikeSecretFile(p))) result.hiddenSecrets++;
  else result.hiddenByIgnoreFile++;
  return false;
}
