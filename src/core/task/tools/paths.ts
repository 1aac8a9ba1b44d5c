/**
 * Resolves a path the model gave against the workspace, and tells whether it really lies inside
 * it: `..` is resolved, and so are symlinks, so a link inside the workspace that points outside
 * counts as outside.
 */
import { lstat, readlink, realpath } from "node:fs/promises";
import * as path from "node:path";
import { ToolError } from "./types";

export interface ResolvedToolPath {
  /** Absolute path with `..` resolved, symlinks kept (what the person recognises). */
  readonly absolute: string;
  /** Relative to the workspace root, with `/` separators; `../…` or absolute when outside. */
  readonly relative: string;
  /** True when the real location (symlinks followed) is outside the real workspace root. */
  readonly outsideWorkspace: boolean;
}

/** Linux gives up after 40 links; so do we (a loop would otherwise never end). */
const MAX_LINK_HOPS = 40;

export async function resolveToolPath(cwd: string, relOrAbs: string): Promise<ResolvedToolPath> {
  if (relOrAbs.trim() === "") {
    throw new ToolError("invalid_param", "The path is empty. Give a file path relative to the working directory.");
  }
  const absolute = path.resolve(cwd, relOrAbs);
  const [realRoot, realTarget] = await Promise.all([realLocation(cwd), realLocation(absolute)]);
  return {
    absolute,
    relative: toSlashes(path.relative(cwd, absolute)) || ".",
    outsideWorkspace: !isWithin(realRoot, realTarget),
  };
}

/** True when `child` is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/**
 * The real path of `p`, also when it does not exist yet: the realpath of its deepest existing
 * ancestor plus the missing rest. Dangling symlinks are followed by hand, because realpath
 * fails on them although writing through them would land at their target.
 */
async function realLocation(p: string): Promise<string> {
  let current = p;
  const missing: string[] = [];
  for (let hops = 0; hops <= MAX_LINK_HOPS; ) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const link = await danglingLinkTarget(current);
    if (link !== undefined) {
      current = path.resolve(path.dirname(current), link);
      hops++;
      continue;
    }
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...missing.reverse());
    missing.push(path.basename(current));
    current = parent;
  }
  throw new ToolError("invalid_param", `Too many levels of symbolic links in ${p}.`);
}

async function danglingLinkTarget(p: string): Promise<string | undefined> {
  try {
    const stats = await lstat(p);
    return stats.isSymbolicLink() ? await readlink(p) : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** ENOENT: nothing there; ENOTDIR: a file stands where a folder was expected. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function toSlashes(p: string): string {
  return path.sep === "\\" ? p.replaceAll("\\", "/") : p;
}
