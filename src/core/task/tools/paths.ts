/**
 * Resolves a path the model gave against the workspace, and where it really lands: `..` is
 * resolved, and so are symlinks (a dangling one too, and for a new file its nearest existing
 * folder). Every check (ignore rules, secret files, inside the workspace, the guard's own files)
 * judges the real location, so a link is judged as its target.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { ToolError } from "./types";

export interface ResolvedToolPath {
  /** Absolute path with `..` resolved, symlinks kept (what the person recognises). */
  readonly absolute: string;
  /** Relative to the workspace root, with `/` separators; `../…` or absolute when outside. */
  readonly relative: string;
  /** Where reading or writing `absolute` really lands: every link followed. Tools do their I/O here. */
  readonly real: string;
  /** `real` as shown to the model: relative to the real workspace root, or absolute when outside. */
  readonly realRelative: string;
  /** True when the real location is outside the real workspace root. */
  readonly outsideWorkspace: boolean;
}

/** Linux gives up after 40 links; so do we (a loop would otherwise never end). */
const MAX_LINK_HOPS = 40;

export async function resolveToolPath(cwd: string, relOrAbs: string): Promise<ResolvedToolPath> {
  if (relOrAbs.trim() === "") {
    throw new ToolError("invalid_param", "The path is empty. Give a file path relative to the working directory.");
  }
  const absolute = path.resolve(cwd, relOrAbs);
  const realRoot = realLocation(cwd);
  const real = realLocation(absolute);
  const outsideWorkspace = !isWithin(realRoot, real);
  return {
    absolute,
    relative: toSlashes(path.relative(cwd, absolute)) || ".",
    real,
    realRelative: outsideWorkspace ? real : toSlashes(path.relative(realRoot, real)) || ".",
    outsideWorkspace,
  };
}

/**
 * Right before a tool reads or writes what was checked (and perhaps approved): throws when the
 * path no longer lands there, because a link was made or changed meanwhile (e.g. by a command
 * running in the background while the person decided).
 */
export function assertStillLandsAt(target: ResolvedToolPath): void {
  if (realLocation(target.absolute) === target.real) return;
  throw new ToolError(
    "failed",
    `${target.relative} now leads somewhere else than when it was checked (a symbolic link changed meanwhile), so nothing was done. Call the tool again.`,
  );
}

/** What a tool's approval request names: the path as given and, when a link leads elsewhere, where it lands. */
export function touchedPaths(target: ResolvedToolPath): string[] {
  return target.real === target.absolute ? [target.absolute] : [target.absolute, target.real];
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
  throw new ToolError("invalid_param", `Too many levels of symbolic links in ${p}.`);
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
