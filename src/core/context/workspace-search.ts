/**
 * The files and folders the panel's @-menu offers: a fuzzy match of what follows the `@` against
 * an index of the workspace. The index is one walk of each workspace folder with list_files' walker
 * (.gitignore, .tandemignore/.clineignore and secret files left out; VCS data such as .git/
 * left out altogether; dependency folders listed but not walked into), bounded to MAX_INDEXED entries. It is kept between keystrokes: a
 * search answers from it at once, and one older than STALE_MS is rebuilt in the background for
 * the next search (a new guard, e.g. after "allow secret files" changed, or a new set of folders
 * rebuilds it first). Paths are as the model writes them: `name/…` in a folder other than the primary.
 */
import type { WorkspaceEntryView } from "../../shared/protocol";
import type { PathGuard } from "../ignore/path-guard";
import { walkFolder } from "../files/walk";
import type { WorkspaceRoots } from "../util/workspace-roots";

export const MAX_INDEXED = 20_000;
export const MAX_RESULTS = 50;
export const STALE_MS = 5_000;

interface Index {
  readonly guard: PathGuard;
  readonly roots: string;
  readonly builtAt: number;
  readonly entries: readonly IndexedEntry[];
}

interface IndexedEntry extends WorkspaceEntryView {
  /** The path lower-cased, matched against the query. */
  readonly key: string;
  /** Where its last segment starts in `key`. */
  readonly nameStart: number;
}

export interface WorkspaceSearchOptions {
  /** The workspace's folders as they are now. */
  roots(): WorkspaceRoots;
  /** The guard as it is now (it changes when the secret-files setting does). */
  guard(): Promise<PathGuard>;
  readonly now?: () => number;
  readonly staleMs?: number;
  readonly maxIndexed?: number;
}

export class WorkspaceSearch {
  private index: Index | undefined;
  private building: Promise<Index> | undefined;
  /** How many times the workspace was walked (tests check that typing does not walk it each time). */
  walks = 0;

  constructor(private readonly options: WorkspaceSearchOptions) {}

  /** Up to `limit` entries matching `query` (fuzzy, in order of the characters), best first. */
  async search(query: string, limit = MAX_RESULTS): Promise<WorkspaceEntryView[]> {
    const index = await this.current();
    return rank(index.entries, query.trim().replace(/^\/+/, "").replace(/\\ /g, " ").toLowerCase(), limit);
  }

  private async current(): Promise<Index> {
    const guard = await this.options.guard();
    const roots = this.options.roots();
    const index = this.index;
    if (!index || index.guard !== guard || index.roots !== roots.key) return this.rebuild(guard, roots);
    const now = this.options.now?.() ?? Date.now();
    // Stale: this search answers from it, the next from a fresh walk.
    if (now - index.builtAt > (this.options.staleMs ?? STALE_MS)) void this.rebuild(guard, roots).catch(() => undefined);
    return index;
  }

  private rebuild(guard: PathGuard, roots: WorkspaceRoots): Promise<Index> {
    this.building ??= this.walk(guard, roots).finally(() => (this.building = undefined));
    return this.building;
  }

  private async walk(guard: PathGuard, roots: WorkspaceRoots): Promise<Index> {
    this.walks++;
    const entries: IndexedEntry[] = [];
    let left = this.options.maxIndexed ?? MAX_INDEXED;
    for (const root of roots.list) {
      // A folder other than the primary is offered itself, by its name.
      if (root !== roots.primary) entries.push(indexed(roots.shown(root.path), true));
      const result = await walkFolder({ cwd: root.path, start: root.path, recursive: true, limit: left, guard, signal: new AbortController().signal, omitVcs: true });
      for (const { absolute, isFolder } of result.entries) entries.push(indexed(roots.shown(absolute), isFolder));
      left -= result.entries.length;
      if (left <= 0) break;
    }
    this.index = { guard, roots: roots.key, builtAt: this.options.now?.() ?? Date.now(), entries };
    return this.index;
  }
}

function indexed(shown: string, isFolder: boolean): IndexedEntry {
  const key = shown.toLowerCase();
  return { path: shown, isFolder, key, nameStart: key.lastIndexOf("/") + 1 };
}

/** The best `limit` matches; an empty query lists the shallowest entries first. */
function rank(entries: readonly IndexedEntry[], query: string, limit: number): WorkspaceEntryView[] {
  const scored: { entry: IndexedEntry; score: number }[] = [];
  for (const entry of entries) {
    const score = query === "" ? -depth(entry.key) : fuzzyScore(entry, query);
    if (score !== undefined) scored.push({ entry, score });
  }
  scored.sort((a, b) => b.score - a.score || a.entry.key.length - b.entry.key.length || (a.entry.key < b.entry.key ? -1 : 1));
  return scored.slice(0, limit).map(({ entry }) => ({ path: entry.path, isFolder: entry.isFolder }));
}

/**
 * The query's characters must appear in order. Points for runs of consecutive characters, for a
 * match at the start of a segment, and for a match in the last segment (the name); fewer for a
 * longer path. Undefined: no match. Cost: one pass over the path.
 */
export function fuzzyScore(entry: Pick<IndexedEntry, "key" | "nameStart">, query: string): number | undefined {
  const { key } = entry;
  let score = 0;
  let at = 0;
  let run = 0;
  for (let i = 0; i < key.length && at < query.length; i++) {
    if (key[i] !== query[at]) {
      run = 0;
      continue;
    }
    run++;
    score += 1 + run * 2;
    const previous = key[i - 1];
    if (i === 0 || previous === "/" || previous === "-" || previous === "_" || previous === ".") score += 4;
    if (i >= entry.nameStart) score += 2;
    at++;
  }
  if (at < query.length) return undefined;
  if (key.slice(entry.nameStart).startsWith(query)) score += 10;
  return score - key.length * 0.05;
}

function depth(key: string): number {
  return key.split("/").length;
}
