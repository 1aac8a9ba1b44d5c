/**
 * Resolves a path the model gave against the workspace, and where it really lands: `..` is
 * resolved, and so are symlinks (a dangling one too, and for a new file its nearest existing
 * folder). Every check (ignore rules, secret files, inside the workspace, the guard's own files)
 * judges the real location, so a link is judged as its target.
 */
import * as path from "node:path";
import { isWithin, LinkLoopError, realLocation as realPath, toSlashes } from "../util/real-paths";
import { ToolError } from "./tool-error";

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

/** realLocation for a path the model named: a link loop is the model's mistake to hear about. */
function realLocation(p: string): string {
  try {
    return realPath(p);
  } catch (error) {
    if (error instanceof LinkLoopError) throw new ToolError("invalid_param", error.message);
    throw error;
  }
}
