/**
 * What the sandbox must hide or protect inside the workspace, found by one walk of it: the files
 * (and folders) the ignore guard keeps from tools, and nested repositories' hooks and config and
 * nested guard folders. A walk costs what the workspace holds, so commands never wait for one
 * but the session's first: a walk starts when a task begins and, in the background, when a
 * command ends (it sees what that command created, at most every 5 s); each command uses the
 * last finished one (WorkspaceWalks).
 */
import { opendir, readdir } from "node:fs/promises";
import * as path from "node:path";
import { GUARD_FOLDERS } from "../ignore/guard-files";
import type { PathGuard } from "../ignore/path-guard";
import { isWithin } from "../util/real-paths";
import { existingObeyed } from "./protected-locations";

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

/** `paused`: a promise to wait for before the next folder (a command is starting), or none. */
export async function scanWorkspace(
  roots: readonly string[],
  guard: PathGuard,
  maxEntries = MAX_ENTRIES,
  paused: () => Promise<void> | undefined = () => undefined,
): Promise<WorkspaceFindings> {
  const hiddenReads: string[] = [];
  const readOnly: string[] = [];
  let entries = 0;
  const pending = roots.map((root) => ({ folder: root, top: true }));
  while (pending.length > 0) {
    await paused();
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
        if (!top && entry.name === ".git") readOnly.push(path.join(full, "hooks"), path.join(full, "config"), ...existingObeyed(full));
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
/**
 * A command that runs on an earlier walk holds the running one this long at most: on two cores,
 * a walk beside a starting sandbox cost it 30 to 50 ms (`npm run bench sandbox`).
 */
const MAX_HOLD_MS = 250;

export type Walker = (roots: readonly string[], guard: PathGuard, paused: () => Promise<void> | undefined) => Promise<WorkspaceFindings>;

/**
 * The walks of one workspace under one guard, kept for the session (CommandSandbox.walksOf): the
 * last finished walk, and the one running. A task starts one when it begins, so its first command
 * normally finds it done; until it is, commands take the last finished walk of an earlier task
 * and only the session's first command waits. The price: a secret made since that walk (by the
 * person, between tasks) is not hidden until the new walk ends, at most one walk after the task
 * began (as within a task, between two walks), plus the pauses below. The roots' own entries,
 * where `.env` files sit, are judged again meanwhile, cheaply. A command on an earlier walk
 * pauses the running one while it runs, at most MAX_HOLD_MS.
 */
export class WorkspaceWalks {
  private finished: WorkspaceFindings | undefined;
  private running: Promise<WorkspaceFindings> | undefined;
  private lastStarted = -Infinity;
  /** Set while commands hold the walk: it waits between folders until the last is released. */
  private gate: { readonly promise: Promise<void>; readonly open: () => void; holds: number } | undefined;

  constructor(
    private readonly roots: readonly string[],
    private readonly guard: PathGuard,
    private readonly walker: Walker = (walked, judged, paused) => scanWorkspace(walked, judged, MAX_ENTRIES, paused),
    private readonly now: () => number = Date.now,
  ) {}

  /** A task begins: a new walk, unless one is running (it began at most a walk ago). */
  start(): void {
    if (!this.running) void this.walk(); // its failure is handled in walk()
  }

  /** A command ended: walk again in the background (it sees what the command created), at most every few seconds. */
  refresh(): void {
    if (this.now() - this.lastStarted >= MIN_WALK_INTERVAL_MS) this.start();
  }

  /** What a command must hide: the last finished walk at once; only when none has finished yet, the running one. */
  current(): Promise<WorkspaceFindings> {
    const finished = this.finished;
    if (!finished) return this.running ?? this.walk();
    return this.running ? withRootEntries(finished, this.roots, this.guard) : Promise.resolve(finished);
  }

  /**
   * A command got its findings and starts: the running walk (or one starting meanwhile) pauses
   * until the returned release, or MAX_HOLD_MS, so it does not take the CPU the sandbox starts
   * with. Only once findings are in hand: a command waiting for a walk never holds it.
   */
  hold(): () => void {
    if (!this.gate) {
      let open = () => {};
      const promise = new Promise<void>((resolve) => (open = resolve));
      this.gate = { promise, open, holds: 0 };
    }
    const gate = this.gate;
    gate.holds++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      if (--gate.holds > 0) return;
      if (this.gate === gate) this.gate = undefined;
      gate.open();
    };
    const timer = setTimeout(release, MAX_HOLD_MS);
    timer.unref();
    return release;
  }

  private walk(): Promise<WorkspaceFindings> {
    this.lastStarted = this.now();
    const walk = this.walker(this.roots, this.guard, () => this.gate?.promise);
    this.running = walk;
    // Attached first, so whoever awaits the walk finds it recorded as finished.
    const ended = () => {
      if (this.running === walk) this.running = undefined;
    };
    walk.then((found) => {
      this.finished = found;
      ended();
    }, ended); // a failed walk is not kept: the last finished one stays, and with none the waiting command fails
    return walk;
  }
}

/** An earlier walk's findings, and the roots' own entries the guard hides now (one listing per root). */
async function withRootEntries(found: WorkspaceFindings, roots: readonly string[], guard: PathGuard): Promise<WorkspaceFindings> {
  const hidden = new Set(found.hiddenReads);
  const added: string[] = [];
  for (const root of roots) {
    let entries;
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch {
      continue; // gone or unreadable: the sandbox cannot read it either
    }
    for (const entry of entries) {
      const full = path.join(root, entry.name);
      if (!hidden.has(full) && guard.isIgnored(entry.isDirectory() ? `${full}${path.sep}` : full)) added.push(full);
    }
  }
  return added.length === 0 ? found : { ...found, hiddenReads: [...found.hiddenReads, ...added] };
}
