/**
 * A task's checkpoints of every workspace folder together: one shadow repository per folder (the
 * store keys by work tree), saved, compared and restored as one behind TaskCheckpointStore. A
 * checkpoint's id names a commit per folder (`roots:[[name, path, hash], …]`, the primary first), so
 * it can be restored from the id alone, whatever folders are open later. A workspace of one folder
 * keeps the plain commit hash, so its tasks (and those saved before several folders existed) read
 * as they always did; a plain hash is the primary folder's. Paths come out as the model writes
 * them: relative in the primary folder, `name/…` in another.
 */
import * as path from "node:path";
import type { WorkspaceRoot } from "../../host/bridge";
import type { CheckpointChange, RestoredFiles } from "../../shared/checkpoints";
import { errorText } from "../util/error-text";
import type { TaskCheckpointStore } from "./types";

export const ROOTS_ID_PREFIX = "roots:";

/** One folder's commit of a checkpoint. */
interface FolderCommit {
  readonly name: string;
  readonly path: string;
  readonly hash: string;
}

/** A folder's own store (core/checkpoints' CheckpointStore), opened for the task. */
export type OpenFolderStore = (folder: string) => Promise<TaskCheckpointStore>;

export class RootsCheckpointStore implements TaskCheckpointStore {
  private readonly stores = new Map<string, Promise<TaskCheckpointStore>>();

  /** `roots`: the folders the task saves (the primary first). */
  private constructor(
    private readonly roots: readonly WorkspaceRoot[],
    private readonly open: OpenFolderStore,
  ) {}

  /** The task's store over `roots` (the primary first), each folder's opened now: a folder that cannot be, fails here. */
  static async open(roots: readonly WorkspaceRoot[], open: OpenFolderStore): Promise<RootsCheckpointStore> {
    if (roots.length === 0) throw new Error("Checkpoints need a workspace folder.");
    const store = new RootsCheckpointStore(roots, open);
    await Promise.all(roots.map((root) => store.store(root.path)));
    return store;
  }

  async initialize(): Promise<string> {
    return this.idOf(await Promise.all(this.roots.map(async (root) => ({ ...root, hash: await (await this.store(root.path)).initialize() }))));
  }

  async save(label: string): Promise<{ hash: string; changed: boolean }> {
    const saved = await Promise.all(this.roots.map(async (root) => ({ root, ...(await (await this.store(root.path)).save(label)) })));
    return { hash: this.idOf(saved.map(({ root, hash }) => ({ ...root, hash }))), changed: saved.some((s) => s.changed) };
  }

  async changedPaths(from: string): Promise<string[]> {
    const commits = this.commitsOf(from);
    const lists = await Promise.all(commits.map(async (commit, i) => (await (await this.store(commit.path)).changedPaths(commit.hash)).map((p) => ({ shown: shownIn(commits, i, p), absolute: path.join(commit.path, p), depth: commit.path.length }))));
    return innermostOnly(lists.flat()).map((entry) => entry.shown);
  }

  async changes(from: string, to?: string): Promise<CheckpointChange[]> {
    const commits = this.commitsOf(from);
    const later = to === undefined ? undefined : new Map(this.commitsOf(to).map((c) => [c.path, c.hash]));
    const lists = await Promise.all(
      commits.map(async (commit, i) => {
        const toHash = later?.get(commit.path);
        // A folder the later checkpoint does not name (the set changed between runs) is not compared.
        if (later && toHash === undefined) return [];
        const changes = await (await this.store(commit.path)).changes(commit.hash, toHash);
        return changes.map((change) => ({ ...change, path: shownIn(commits, i, change.path), absolute: path.join(commit.path, change.path), depth: commit.path.length }));
      }),
    );
    return innermostOnly(lists.flat()).map(({ depth: _depth, ...change }) => change);
  }

  /** Every folder the checkpoint names goes back; one that cannot be opened is left alone and named. */
  async restoreFiles(id: string): Promise<RestoredFiles> {
    const commits = this.commitsOf(id);
    const results = await Promise.all(
      commits.map(async (commit, i) => {
        const shown = (p: string) => shownIn(commits, i, p);
        try {
          const result = await (await this.store(commit.path)).restoreFiles(commit.hash);
          return { written: result.written.map(shown), deleted: result.deleted.map(shown), skipped: result.skipped.map((s) => ({ ...s, path: shown(s.path) })) };
        } catch (error) {
          if (commits.length === 1) throw error;
          return { written: [], deleted: [], skipped: [{ path: `${commit.name}/`, reason: errorText(error) }] };
        }
      }),
    );
    return { written: results.flatMap((r) => r.written), deleted: results.flatMap((r) => r.deleted), skipped: results.flatMap((r) => r.skipped) };
  }

  async deleteTask(): Promise<void> {
    for (const root of this.roots) await (await this.store(root.path)).deleteTask();
  }

  /** One folder's store, opened once. */
  private store(folder: string): Promise<TaskCheckpointStore> {
    let store = this.stores.get(folder);
    if (!store) this.stores.set(folder, (store = this.open(folder)));
    return store;
  }

  /** A plain hash for the primary folder alone (as single-folder tasks always had), else the folders' commits. */
  private idOf(commits: readonly FolderCommit[]): string {
    const [only] = commits;
    if (commits.length === 1 && only && only.path === this.roots[0]?.path) return only.hash;
    return `${ROOTS_ID_PREFIX}${JSON.stringify(commits.map((c) => [c.name, c.path, c.hash]))}`;
  }

  private commitsOf(id: string): FolderCommit[] {
    return parseCheckpointId(id, this.roots[0] as WorkspaceRoot);
  }
}

/** The folders' commits an id names; a plain hash is `primary`'s. Throws on a damaged id. */
export function parseCheckpointId(id: string, primary: WorkspaceRoot): FolderCommit[] {
  if (!id.startsWith(ROOTS_ID_PREFIX)) return [{ ...primary, hash: id }];
  let entries: unknown;
  try {
    entries = JSON.parse(id.slice(ROOTS_ID_PREFIX.length));
  } catch {
    entries = undefined;
  }
  const valid = Array.isArray(entries) && entries.length > 0 && entries.every((e) => Array.isArray(e) && e.length === 3 && e.every((part) => typeof part === "string"));
  if (!valid) throw new Error(`The checkpoint id ${JSON.stringify(id.slice(0, 80))} cannot be read.`);
  return (entries as [string, string, string][]).map(([name, folder, hash]) => ({ name, path: folder, hash }));
}

/** A path of commit `i`'s folder as the model writes it: the first folder's plainly, another's under its name. */
function shownIn(commits: readonly FolderCommit[], i: number, relative: string): string {
  return i === 0 ? relative : `${commits[i]?.name ?? ""}/${relative}`;
}

/** A folder inside another is saved by both: its files are named once, by the innermost. */
function innermostOnly<T extends { readonly absolute: string; readonly depth: number }>(entries: readonly T[]): T[] {
  const best = new Map<string, T>();
  for (const entry of entries) {
    const known = best.get(entry.absolute);
    if (!known || entry.depth > known.depth) best.set(entry.absolute, entry);
  }
  return entries.filter((entry) => best.get(entry.absolute) === entry);
}
