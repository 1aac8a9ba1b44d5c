/**
 * Resolves a path the model gave against the workspace's folders, and where it really lands:
 * `..` is resolved, and so are symlinks (a dangling one too, and for a new file its nearest
 * existing folder). An absolute path is taken as it is; a relative one whose first segment names
 * a workspace folder other than the primary resolves in that folder (`frontend/src/a.ts`), unless
 * the primary folder has an entry of that name too (then the model is told how to say which);
 * any other resolves in the primary folder. Every check (ignore rules, secret files, inside the
 * workspace, the guard's own files) judges the real location, so a link is judged as its target:
 * `..` and links stay inside only while they land in one of the folders.
 */
import * as path from "node:path";
import { LinkLoopError, realLocation as realPath, toSlashes } from "../util/real-paths";
import type { WorkspaceRoots } from "../util/workspace-roots";
import { ToolError } from "./tool-error";

export interface ResolvedToolPath {
  /** Absolute path with `..` resolved, symlinks kept (what the person recognises). */
  readonly absolute: string;
  /** As the model writes it (`WorkspaceRoots.shown`); outside every folder, relative to the primary (`../…`) or absolute. */
  readonly relative: string;
  /** Where reading or writing `absolute` really lands: every link followed. Tools do their I/O here. */
  readonly real: string;
  /** `real` as shown to the model: `WorkspaceRoots.shown`, or absolute when outside. */
  readonly realRelative: string;
  /** True when the real location is outside every folder's real path. */
  readonly outsideWorkspace: boolean;
}

export async function resolveToolPath(roots: WorkspaceRoots, relOrAbs: string): Promise<ResolvedToolPath> {
  if (relOrAbs.trim() === "") {
    throw new ToolError("invalid_param", "The path is empty. Give a file path relative to the working directory.");
  }
  const absolute = locate(roots, relOrAbs);
  const real = realLocation(absolute);
  const outsideWorkspace = !roots.contains(real);
  const named = roots.holding(absolute);
  return {
    absolute,
    relative: named ? roots.shown(absolute) : toSlashes(path.relative(roots.primary.path, absolute)) || ".",
    real,
    realRelative: outsideWorkspace ? real : roots.shown(real),
    outsideWorkspace,
  };
}

/** The absolute path `written` means: see the header. Throws a ToolError when it could mean two places. */
export function locate(roots: WorkspaceRoots, written: string): string {
  const primary = roots.primary.path;
  if (path.isAbsolute(written)) return path.resolve(written);
  const [first = "", ...rest] = written.split(SEPARATORS);
  const root = roots.named(first);
  if (!root) return path.resolve(primary, written);
  const inRoot = path.resolve(root.path, ...rest);
  if (!roots.shadowed(root)) return inRoot;
  const tail = rest.join("/");
  throw new ToolError(
    "invalid_param",
    `${written} is ambiguous: ${first} is a workspace folder (${root.path}) and also an entry of the primary folder (${path.join(primary, first)}). ` +
      `Write ./${toSlashes(written)} for the primary folder's, or the absolute path ${tail ? path.join(root.path, tail) : root.path} for the workspace folder's.`,
  );
}

/** What splits a written path into segments: `/`, and `\` where the platform takes it too. */
const SEPARATORS = path.sep === "\\" ? /[\\/]/ : /\//;

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
