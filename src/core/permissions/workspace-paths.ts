/**
 * Where a command's path arguments land: resolved against the folder the command runs in, and,
 * when the caller lends a view of the disk, with links followed, so a link inside the workspace
 * that points outside counts as outside. The policy itself never touches the disk.
 */
import * as path from "node:path";
import { expandArg, type PathEnv } from "./resolve-words";
import type { ShellArg } from "./shell-script";

/** What the policy may ask of the disk. */
export interface DiskView {
  /** Where `absolute` really lands: links followed, also for a path that does not exist yet. */
  realPath(absolute: string): string;
  /** The names in a folder ([] when it cannot be read). */
  list(folder: string): readonly string[];
}

/** Lexical only: paths are judged as written (the default, and in tests with made-up folders). */
export const LEXICAL_DISK: DiskView = { realPath: (p) => p, list: () => [] };

/** The argument as an absolute, normalized path; null when it is only known at run time. */
export function absolutePath(arg: ShellArg, env: PathEnv): string | null {
  const value = expandArg(arg, env, "known");
  if (value === null || value === "") return null;
  if (value.startsWith("/")) return path.posix.normalize(value);
  return env.cwd === null ? null : path.posix.join(env.cwd, value);
}

/**
 * True when `absolute` lies in one of the workspace's folders (or is one) as written, and where
 * links lead lies in one of them too (a link from one folder into another stays inside).
 */
export function isInsideAny(absolute: string, roots: readonly string[], disk: DiskView): boolean {
  if (!roots.some((root) => within(path.posix.normalize(root), path.posix.normalize(absolute)))) return false;
  // A glob cannot be followed: judge the folder it sits in.
  const globAt = absolute.search(/[*?[]/);
  const fixed = safeReal(disk, globAt === -1 ? absolute : path.posix.dirname(absolute.slice(0, globAt + 1)));
  return roots.some((root) => within(safeReal(disk, root), fixed));
}

function within(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith("/") ? root : `${root}/`);
}

function safeReal(disk: DiskView, p: string): string {
  try {
    return disk.realPath(p);
  } catch {
    return p;
  }
}
