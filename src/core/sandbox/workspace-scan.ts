/**
 * What the sandbox must hide or protect inside the workspace, found by one walk of it: the files
 * (and folders) the ignore guard keeps from tools, and nested repositories' hooks and config and
 * nested guard folders. A walk costs what the workspace holds, so commands never wait for one
 * except the task's first: each command uses the last finished walk, and a new walk starts in
 * the background when a command ends (it sees what that command created), at most every 5 s.
 */
import { opendir, readdir } from "node:fs/promises";
import * as path from "node:path";
import { GUARD_FOLDERS } from "../ignore/guard-files";
import type { PathGuard } from "../ignore/path-guard";
import { isWithin } from "../util/real-paths";

/** Dependency folders hold packaged files, not the person's credentials; walking them would cost the most. */
const NOT_WALKED = new Set(["node_modules", ".git"]);
/** A walk stops after this many entries and says so. */
const MAX_ENTRIES = 200_000;
/**
 * Each hidden path is a mount: about 2 ms more per command each (`npm run bench sandbox`), and
 * more than linearly past a few hundred (2,000 paths: 5 to 10 s a command). Past the first figure,
 * folders holding several hidden paths are hidden whole instead; past the second, folders
 * holding one too: more is hidden, never less.
 */
export const HIDDEN_PATHS = { grouped: 48, most: 96 } as const;

export interface WorkspaceFindings {
  /** Ignored and secret files and folders: unreadable inside. */
  readonly hiddenReads: readonly string[];
  /** Nested `.git/hooks`, `.git/config`, `.vscode`, `.tandem`: read-only inside. */
  readonly readOnly: readonly string[];
  /** Set when the walk stopped early: ignored files past that point are not hidden. */
  readonly truncated: boolean;
  /** Folders hidden whole because they held too many hidden files to hide one by one. */
  readonly hiddenWhole: readonly string[];
}

export async function scanWorkspace(roots: readonly string[], guard: PathGuard, maxEntries = MAX_ENTRIES): Promise<WorkspaceFindings> {
  const hiddenReads: string[] = [];
  const readOnly: string[] = [];
  let entries = 0;
  const pending = roots.map((root) => ({ folder: root, top: true }));
  while (pending.length > 0) {
    const { folder, top } = pending.pop() as { folder: string; top: boolean };
    let dir;
    try {
      dir = await opendir(folder);
    } catch {
      continue; // gone or unreadable: the sandbox cannot read it either
    }
    for await (const entry of dir) {
      // Leaving the loop closes the folder.
      if (++entries > maxEntries) return findings(hiddenReads, readOnly, roots, true);
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (guard.isIgnored(`${full}${path.sep}`)) {
          hiddenReads.push(full);
          continue;
        }
        // The root's own guard folders are protected by name (protected-locations.ts); nested ones are found here.
        if (!top && entry.name === ".git") readOnly.push(path.join(full, "hooks"), path.join(full, "config"));
        if (entry.name === ".git") readOnly.push(...(await submoduleGitFiles(path.join(full, "modules"))));
        else if (!top && (GUARD_FOLDERS as readonly string[]).includes(entry.name)) readOnly.push(full);
        if (!NOT_WALKED.has(entry.name)) pending.push({ folder: full, top: false });
      } else if (guard.isIgnored(full)) {
        hiddenReads.push(full);
      }
    }
  }
  return findings(hiddenReads, readOnly, roots, false);
}

function findings(hidden: string[], readOnly: string[], roots: readonly string[], truncated: boolean): WorkspaceFindings {
  const coarse = coarsenHidden(hidden, roots, HIDDEN_PATHS.grouped, HIDDEN_PATHS.most);
  return { hiddenReads: coarse.paths, readOnly, truncated, hiddenWhole: coarse.folders };
}

/**
 * Paths that hide at least what `paths` hide, fewer of them: past `cap`, folders holding several
 * hidden paths are hidden whole, the fullest first; past `most`, the deepest lone ones give way
 * to their folders too. A root's own entries are never merged into the root (commands run there).
 */
export function coarsenHidden(paths: readonly string[], roots: readonly string[], cap: number, most = cap): { paths: string[]; folders: string[] } {
  let hidden = new Set(paths);
  const folders = new Set<string>();
  const rootSet = new Set(roots);
  const merge = (folder: string) => {
    hidden = new Set([...hidden].filter((p) => !isWithin(folder, p)));
    hidden.add(folder);
    folders.add(folder);
  };
  while (hidden.size > cap) {
    const mergeable = [...hidden].filter((p) => !rootSet.has(path.dirname(p)));
    if (mergeable.length === 0) break;
    const byFolder = new Map<string, number>();
    for (const p of mergeable) byFolder.set(path.dirname(p), (byFolder.get(path.dirname(p)) ?? 0) + 1);
    const several = [...byFolder].filter(([, count]) => count > 1).sort((a, b) => b[1] - a[1]);
    if (several.length > 0) {
      for (const [folder] of several) {
        merge(folder);
        if (hidden.size <= cap) break;
      }
      continue;
    }
    // Only lone paths left: they stay one by one up to `most`, then the deepest give way to their folders.
    if (hidden.size <= most) break;
    const deepest = Math.max(...mergeable.map(depth));
    for (const p of mergeable.filter((m) => depth(m) === deepest)) merge(path.dirname(p));
  }
  return { paths: [...hidden], folders: [...folders].filter((folder) => hidden.has(folder)) };
}

function depth(p: string): number {
  return p.split(path.sep).length;
}

/** Parts of a git folder that never hold what runs: walking them would cost the most. */
const GIT_DATA = new Set(["objects", "refs", "logs", "lfs"]);

/** Submodules keep their git folders in `.git/modules/…`: their hooks and config run code too. */
async function submoduleGitFiles(modules: string, depth = 0): Promise<string[]> {
  if (depth > 6) return [];
  let names;
  try {
    names = await readdir(modules, { withFileTypes: true });
  } catch {
    return []; // no submodules
  }
  const found: string[] = [];
  for (const entry of names) {
    const full = path.join(modules, entry.name);
    if (entry.name === "hooks" || entry.name === "config") found.push(full);
    else if (entry.isDirectory() && !GIT_DATA.has(entry.name)) found.push(...(await submoduleGitFiles(full, depth + 1)));
  }
  return found;
}

/** A walk costs what the workspace holds: after a command, a new one starts at most this often. */
const MIN_WALK_INTERVAL_MS = 5_000;

/** The last finished walk, refreshed in the background after commands (at most every few seconds). */
export class WorkspaceScanCache {
  private latest: Promise<WorkspaceFindings> | undefined;
  private running: Promise<WorkspaceFindings> | undefined;
  private lastStarted = 0;

  constructor(
    private readonly roots: readonly string[],
    private readonly guard: PathGuard,
  ) {}

  /** The task's first call waits for a walk; later ones take the last finished one. */
  current(): Promise<WorkspaceFindings> {
    this.latest ??= this.walk();
    return this.latest;
  }

  /** Walks again in the background (one at a time); the next command uses it once it has finished. */
  refresh(): void {
    if (this.running || Date.now() - this.lastStarted < MIN_WALK_INTERVAL_MS) return;
    const walk = this.walk();
    this.running = walk;
    walk
      .then(
        () => {
          this.latest = walk;
        },
        () => {},
      )
      .finally(() => {
        this.running = undefined;
      });
  }

  private walk(): Promise<WorkspaceFindings> {
    this.lastStarted = Date.now();
    return scanWorkspace(this.roots, this.guard);
  }
}
