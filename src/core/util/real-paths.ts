/**
 * Where a path really lands on disk, and whether one path lies within another: the path facts
 * the guard, the sandbox and the tools all judge by. A link is judged as its target.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import * as path from "node:path";

/** Linux gives up after 40 links; so do we (a loop would otherwise never end). */
const MAX_LINK_HOPS = 40;

/** A chain of symbolic links that never ends (or is longer than Linux follows). */
export class LinkLoopError extends Error {
  override readonly name = "LinkLoopError";
  constructor(readonly path: string) {
    super(`Too many levels of symbolic links in ${path}.`);
  }
}

/** True when `child` is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/**
 * The real path of `p` (absolute), also when it does not exist yet: the realpath of its deepest
 * existing ancestor plus the missing rest. Dangling symlinks are followed by hand, because
 * realpath fails on them although writing through them would land at their target. Synchronous,
 * because the ignore controller answers synchronously; each step is one cheap system call.
 */
export function realLocation(p: string): string {
  let current = p;
  const missing: string[] = [];
  for (let hops = 0; hops <= MAX_LINK_HOPS; ) {
    try {
      return path.join(realpathSync.native(current), ...missing.toReversed());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ELOOP") break;
      if (!isMissing(error)) throw error;
    }
    const link = danglingLinkTarget(current);
    if (link !== undefined) {
      // Not normalised: `..` in a link's target is resolved by the disk, after the links before it.
      current = path.isAbsolute(link) ? link : `${path.dirname(current)}${path.sep}${link}`;
      hops++;
      continue;
    }
    const parent = path.dirname(current);
    if (parent === current) return path.join(current, ...missing.toReversed());
    missing.push(path.basename(current));
    current = parent;
  }
  throw new LinkLoopError(p);
}

function danglingLinkTarget(p: string): string | undefined {
  try {
    return lstatSync(p).isSymbolicLink() ? readlinkSync(p) : undefined;
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

export function toSlashes(p: string): string {
  return path.sep === "\\" ? p.replaceAll("\\", "/") : p;
}
