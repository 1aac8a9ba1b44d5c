/**
 * Which folders a recursive delete or permission change must never reach: the filesystem root,
 * the top-level system folders, the home folder, the workspace root, and anything containing them.
 */
import * as path from "node:path";

export interface ProtectedPlaces {
  readonly home: string;
  /** Null when the workspace root is not known or does not count (recursive chmod in a workspace). */
  readonly workspaceRoot: string | null;
  /** The workspace's other folders (multi-root), protected like its root while it counts. */
  readonly otherRoots?: readonly string[];
  /** The folder relative paths resolve against; null when unknown. */
  readonly cwd: string | null;
}

const SYSTEM_FOLDERS = new Set([
  "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/media", "/mnt", "/opt",
  "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/tmp", "/usr", "/var",
  "/Applications", "/Library", "/System", "/Users", "/Volumes", "/cores", "/private",
]);

const GLOB = /[*?[]/;

/**
 * A description of the protected place `target` would hit ("your home folder"), or null.
 * A glob right under `/` hits the root; a bare `*` hits the folder it lists.
 */
export function protectedTarget(target: string, places: ProtectedPlaces): string | null {
  if (target === "") return null;
  let absolute: string;
  if (target.startsWith("/")) absolute = target;
  else if (places.cwd !== null) absolute = `${places.cwd}/${target}`;
  else return null;
  const segments = normalizeSegments(absolute);
  const globAt = segments.findIndex((s) => GLOB.test(s));
  if (globAt === -1) return describe(`/${segments.join("/")}`, places);
  if (globAt === 0) return "everything under /";
  const folder = `/${segments.slice(0, globAt).join("/")}`;
  const wholeFolder = globAt === segments.length - 1 && /^\*+$/.test(segments[globAt] ?? "");
  const place = wholeFolder ? describe(folder, places) : null;
  return place === null ? null : `everything in ${place}`;
}

/** Lexical `.` and `..` handling, as the shell hands the path to the command. */
function normalizeSegments(absolute: string): string[] {
  const out: string[] = [];
  for (const segment of absolute.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out;
}

function describe(folder: string, places: ProtectedPlaces): string | null {
  if (folder === "/") return "the filesystem root /";
  const home = clean(places.home);
  if (folder === home) return `your home folder ${home}`;
  if (SYSTEM_FOLDERS.has(folder)) return `the system folder ${folder}`;
  if (isAncestor(folder, home)) return `${folder}, which contains your home folder`;
  if (places.workspaceRoot === null) return null;
  for (const root of [places.workspaceRoot, ...(places.otherRoots ?? [])].map(clean)) {
    if (folder === root) return `the workspace root ${root}`;
    if (isAncestor(folder, root)) return `${folder}, which contains the workspace`;
  }
  return null;
}

function clean(folder: string): string {
  const normalized = path.posix.normalize(folder);
  return normalized.length > 1 ? normalized.replace(/\/+$/, "") : normalized;
}

function isAncestor(folder: string, of: string): boolean {
  return of.startsWith(`${folder}/`);
}
