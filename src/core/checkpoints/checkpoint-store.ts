/**
 * A task's checkpoints of one workspace folder: commits in the folder's shadow repository (under
 * the storage folder, never in the workspace), on the task's own ref `refs/tandem/<taskId>`, so
 * the tasks of a workspace share their objects and deleting a task deletes its ref.
 *
 * Every operation runs under the store lock (store-lock.ts, across processes), first cleans what a
 * killed operation left (leftover-git-files.ts), and works on its own name for the shadow's index
 * (shareIndex below), renamed over the real one when it succeeds. A kill at any moment thus leaves
 * the last complete index and at worst a stale name for it, never a locked or half-written index;
 * a ref moves only by `update-ref` from the value the operation started from.
 */
import { copyFile, link, realpath, rename, rm, stat, unlink, utimes } from "node:fs/promises";
import * as path from "node:path";
import { tempPathFor } from "../storage/temp-name";
import { errorText } from "../util/error-text";
import { checkpointsAvailability } from "./availability";
import { CheckpointError } from "./checkpoint-error";
import { ShadowGit } from "./git-process";
import { GIT_LOCK_GRACE_MS, removeLeftoverGitFiles } from "./leftover-git-files";
import { restoreDifferences, type RestoreResult } from "./restore-files";
import { ensureShadowRepository, readPersonalExcludesFile } from "./shadow-setup";
import { shadowLocation, type ShadowLocation } from "./shadow-location";
import { packingDue, packObjects } from "./pack-objects";
import { setEntries, stageIndex, stageWorkspace, type StageOptions } from "./stage-workspace";
import { acquireStoreLock } from "./store-lock";
import { diffIndex, diffTrees, looksBinary, readBlobs, type TreeDifference, type TreeEntry } from "./tree-diff";
import { exists } from "./fs-probes";
import { shownPath } from "./path-bytes";

export type { RestoreResult } from "./restore-files";

/** Files larger than this are kept out of checkpoints unless the store is opened with another limit. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

const REF_FOLDER = "refs/tandem";
/** What a task id may be, to name a ref. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Keeps the index's objects alive through a gc; points at a commit of the index's tree. */
const INDEX_KEEPER_REF = "refs/tandem-internal/index";
const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface CheckpointStoreOptions {
  /** The extension's (or the CLI's) storage folder; the store lives in its `checkpoints/` folder. */
  storageRoot: string;
  /** The workspace folder to checkpoint. */
  workspaceRoot: string;
  /** The task whose checkpoints these are: letters, digits, `-` and `_` (a UUID). */
  taskId: string;
  /** Files larger than this are kept out; default 10 MB. */
  maxFileBytes?: number;
  /** The git program; default "git" on the PATH. */
  gitBinary?: string;
  /**
   * Told when work the store does after a save has returned fails: packing its objects. The store
   * stays correct (only larger), and the next save that finds packing due tries again.
   */
  onWarning?: (message: string) => void;
}

/** A file that differs between two checkpoints, or a checkpoint and the workspace now. */
export interface CheckpointChange {
  /** Relative to the workspace, with "/"; a byte of the name that is not UTF-8 shows as `\xNN`. */
  readonly path: string;
  readonly status: "added" | "modified" | "deleted";
  /** The content before, or undefined when the file did not exist or is binary. */
  readonly before: string | undefined;
  /** The content after, or undefined when the file does not exist or is binary. */
  readonly after: string | undefined;
  /** True when either side is binary (its content is then undefined). */
  readonly binary: boolean;
}

/** A task's latest checkpoint and its tree. */
interface Tip {
  readonly hash: string;
  readonly tree: string;
}

export class CheckpointStore {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly location: ShadowLocation,
    private readonly options: { taskRef: string; binary: string; stage: StageOptions; onWarning: (message: string) => void },
  ) {}

  /** A store for the task, ready to use; throws a CheckpointError when git is missing or the workspace is not a folder. */
  static async open(options: CheckpointStoreOptions): Promise<CheckpointStore> {
    const binary = options.gitBinary ?? "git";
    // git's version and the person's excludes file are asked at once (the panel opens a store for
    // each restore); the errors still come in this order: git, the task id, the folder.
    const realFolder = realpath(options.workspaceRoot);
    const excludes = realFolder.then((real) => readPersonalExcludesFile(binary, path.dirname(real)));
    excludes.catch(() => undefined); // thrown below when it matters (git and the folder are fine)
    const availability = await checkpointsAvailability({ gitBinary: binary });
    if (!availability.available) throw new CheckpointError("open checkpoints", options.workspaceRoot, availability.reason);
    if (!TASK_ID.test(options.taskId)) {
      throw new CheckpointError("open checkpoints", options.workspaceRoot, `the task id "${options.taskId}" is not letters, digits, "-" and "_"`);
    }
    let workTree: string;
    try {
      workTree = await realFolder;
      if (!(await stat(workTree)).isDirectory()) throw new Error("it is not a folder");
    } catch (error) {
      throw new CheckpointError("open checkpoints", options.workspaceRoot, errorText(error));
    }
    const personalExcludesFile = await excludes;
    return new CheckpointStore(shadowLocation(options.storageRoot, workTree), {
      taskRef: `${REF_FOLDER}/${options.taskId}`,
      binary,
      stage: { maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, personalExcludesFile },
      // No listener: a failed packing costs only disk space, and the next one tries again.
      onWarning: options.onWarning ?? (() => undefined),
    });
  }

  /** The workspace folder (its real path) these checkpoints are of. */
  get workspaceRoot(): string {
    return this.location.workTree;
  }

  /**
   * The task's first checkpoint: the workspace as the task found it. Idempotent: when the task
   * already has checkpoints (a resumed task), returns its latest and records nothing.
   */
  initialize(): Promise<string> {
    return this.operation("make the first checkpoint", {}, async (git) => {
      const tip = await this.tip(git);
      if (tip !== undefined) return tip.hash;
      return (await this.commitWorkspace(git, "Task start", Promise.resolve(undefined))).hash;
    });
  }

  /**
   * Records the workspace now as the task's next checkpoint. When nothing changed since the
   * task's latest checkpoint, makes no commit and returns that one with `changed: false`.
   */
  save(label: string): Promise<{ hash: string; changed: boolean }> {
    return this.operation("save a checkpoint", {}, async (git) => this.commitWorkspace(git, label, this.tip(git)));
  }

  /**
   * The files that differ from checkpoint `from` to checkpoint `to`, or to the workspace now when
   * `to` is absent: path, status, and both contents for a diff editor.
   */
  changes(from: string, to?: string): Promise<CheckpointChange[]> {
    return this.operation("compare checkpoints", {}, async (git) => {
      const fromTree = await this.treeOf(git, from);
      const toTree = to === undefined ? (await stageWorkspace(git, this.options.stage)).tree : await this.treeOf(git, to);
      const differences = await diffTrees(git, fromTree, toTree);
      const blobs = await readBlobs(git, differences.flatMap((d) => [d.before, d.after]).flatMap((e) => (e ? [e.oid] : [])));
      return differences.map((d) => {
        const before = d.before && blobs.get(d.before.oid);
        const after = d.after && blobs.get(d.after.oid);
        const binary = (before !== undefined && looksBinary(before)) || (after !== undefined && looksBinary(after));
        const text = (bytes: Buffer | undefined) => (bytes === undefined || binary ? undefined : bytes.toString("utf8"));
        return { path: shownPath(d.path), status: d.status, before: text(before), after: text(after), binary };
      });
    });
  }

  /** The paths that differ from checkpoint `from` to the workspace now: `changes` without reading a file's contents. */
  changedPaths(from: string): Promise<string[]> {
    return this.operation("compare with the workspace", {}, async (git) => {
      const fromTree = await this.treeOf(git, from);
      const { tree } = await stageWorkspace(git, this.options.stage);
      return (await diffTrees(git, fromTree, tree)).map((d) => shownPath(d.path));
    });
  }

  /**
   * Puts the tracked files back as they were at checkpoint `hash`: rewrites the ones that changed,
   * deletes the ones added since, recreates the deleted ones. Never touches ignored, excluded or
   * never-tracked files. Idempotent; a restore interrupted midway completes when run again.
   * The paths it returns are for people: a byte of a name that is not UTF-8 shows as `\xNN`.
   */
  restoreFiles(hash: string): Promise<RestoreResult> {
    return this.operation("restore a checkpoint", {}, async (git) => {
      const [[target, tip], scan] = await settled(this.treeAndTip(git, hash), stageIndex(git, this.options.stage));
      // A file no checkpoint of the task saved (the person made it after the latest) is not the
      // task's to delete: only what the task's latest checkpoint holds is taken back. (Each
      // restore ends by recording what it left, so the latest holds every file a restore wrote.)
      const [sinceTip, differences] = await settled(tip ? diffIndex(git, tip.tree, "tree to index") : Promise.resolve([]), diffIndex(git, target, "index to tree"));
      const newSinceTip = new Set(sinceTip.filter((d) => d.status === "added").map((d) => d.path));
      const restoring = differences.filter((d) => d.status !== "deleted" || !newSinceTip.has(d.path));
      const kept = differences.filter((d) => d.status === "deleted" && newSinceTip.has(d.path));
      // While the files are written, the index and the commit are made as if none will be left
      // alone (the usual case): the index takes the checkpoint's entries for every path restored,
      // reading no file back (see setEntries), and is then the checkpoint's tree, which is committed.
      const label = `Restored ${hash}`;
      const [result, , commit] = await settled(
        restoreDifferences(git, restoring, new Map(scan.keptOut.map((k) => [k.path, k.reason]))),
        setEntries(git, [
          ...restoring.filter((d) => d.after === undefined).map((d) => ({ path: d.path, mode: "0", oid: (d.before as TreeEntry).oid })),
          ...restoring.flatMap((d) => (d.after ? [{ path: d.path, ...d.after }] : [])),
        ]),
        tip?.tree === target ? Promise.resolve(undefined) : this.makeCommit(git, label, tip, target),
      );
      if (result.skipped.length === 0 && kept.length === 0) {
        if (commit !== undefined) await this.moveTip(git, tip, commit);
      } else {
        // What was left alone keeps the entry it had (none, for a file the workspace had not); the
        // index is then the workspace as the restore left it, and its own tree is the one to commit.
        const before = new Map(restoring.map((d) => [d.path, d]));
        await setEntries(git, result.skipped.map(({ path: p }) => {
          const difference = before.get(p) as TreeDifference;
          return { path: p, ...(difference.before ?? { mode: "0", oid: (difference.after as TreeEntry).oid }) };
        }));
        await this.commitTree(git, label, tip, (await git.run(["write-tree"])).trim());
      }
      result.skipped.push(...kept.map((d) => ({ path: d.path, reason: "no checkpoint of this task saved it, so it stays" })));
      return { written: result.written.map(shownPath), deleted: result.deleted.map(shownPath), skipped: result.skipped.map((s) => ({ path: shownPath(s.path), reason: s.reason })) };
    });
  }

  /**
   * Deletes this task's checkpoints (its ref), and those of `alsoTaskIds` in the same step (History's
   * "Delete all": one transaction and one gc, not one each), and lets git drop the objects no other
   * task keeps. When no task is left, the workspace's shadow repository goes as a whole.
   */
  deleteTask(alsoTaskIds: readonly string[] = []): Promise<void> {
    const nothingToDelete = { whenNoRepository: () => undefined };
    const refs = [this.options.taskRef, ...alsoTaskIds.filter((id) => TASK_ID.test(id)).map((id) => `${REF_FOLDER}/${id}`)];
    return this.operation("delete the task's checkpoints", nothingToDelete, async (git) => {
      await this.updateRefs(git, `start\n${refs.map((ref) => `delete ${ref}\n`).join("")}prepare\ncommit\n`);
      const others = (await git.run(["for-each-ref", "--count=1", "--format=%(refname)", REF_FOLDER])).trim();
      if (others === "") {
        await rm(this.location.gitDir, { recursive: true, force: true });
        return;
      }
      // What the index holds must survive gc (later saves rely on it): the workspace as it is now.
      const { tree } = await stageWorkspace(git, this.options.stage);
      const keeper = (await git.run(["commit-tree", tree], { input: "The index, kept through gc" })).trim();
      await this.updateRefs(git, `start\nupdate ${INDEX_KEEPER_REF} ${keeper}\nupdate HEAD ${keeper}\nprepare\ncommit\n`);
      await git.run(["gc", "--prune=now", "--quiet"]);
    });
  }

  /** Resolves when the store has nothing more to do: every operation asked for, and the packing a save left behind. */
  async whenIdle(): Promise<void> {
    await this.queue;
  }

  /** Queues the packing of the store's objects after the save in progress (pack-objects.ts). */
  private packAfterwards(): void {
    this.operation("pack the store's objects", {}, (git) => packObjects(git)).catch((error: unknown) => this.options.onWarning(errorText(error)));
  }

  /** Commits the workspace on the task's ref, after `tip` (undefined: the task's first checkpoint), looked up meanwhile. */
  private async commitWorkspace(git: ShadowGit, label: string, tipLookup: Promise<Tip | undefined>): Promise<{ hash: string; changed: boolean }> {
    const [tip, { tree }] = await settled(tipLookup, stageWorkspace(git, this.options.stage));
    return this.commitTree(git, label, tip, tree);
  }

  /** Commits `tree` on the task's ref after `tip`, unless it is the tip's tree already. */
  private async commitTree(git: ShadowGit, label: string, tip: Tip | undefined, tree: string): Promise<{ hash: string; changed: boolean }> {
    if (tip !== undefined && tip.tree === tree) return { hash: tip.hash, changed: false };
    const hash = await this.makeCommit(git, label, tip, tree);
    await this.moveTip(git, tip, hash);
    return { hash, changed: true };
  }

  /** A commit of `tree` after `tip`, on no ref yet. */
  private async makeCommit(git: ShadowGit, label: string, tip: Tip | undefined, tree: string): Promise<string> {
    return (await git.run(["commit-tree", tree, ...(tip ? ["-p", tip.hash] : [])], { input: label })).trim();
  }

  /** Moves the task's ref from `tip` to `commit`. */
  private async moveTip(git: ShadowGit, tip: Tip | undefined, commit: string): Promise<void> {
    const move = tip ? `update ${this.options.taskRef} ${commit} ${tip.hash}` : `create ${this.options.taskRef} ${commit}`;
    // HEAD follows the latest checkpoint, so `status` compares the index with a tree like it.
    await this.updateRefs(git, `start\n${move}\nupdate HEAD ${commit}\nprepare\ncommit\n`);
    if (await packingDue(git.paths.gitDir)) this.packAfterwards();
  }

  /**
   * One `update-ref` transaction. A ref's lock file too young for the cleanup at the start may be
   * a git child of a killed Tandem still finishing, or a leftover of one: wait out the grace once,
   * clean, and try again.
   */
  private async updateRefs(git: ShadowGit, transaction: string): Promise<void> {
    try {
      await git.run(["update-ref", "--no-deref", "--stdin"], { input: transaction });
    } catch (error) {
      if (!/\.lock'?: File exists|Unable to create .*\.lock/i.test(errorText(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, GIT_LOCK_GRACE_MS + 100));
      await removeLeftoverGitFiles(this.location.gitDir, path.join(this.location.gitDir, REF_FOLDER));
      await git.run(["update-ref", "--no-deref", "--stdin"], { input: transaction });
    }
  }

  /** The task's latest checkpoint and its tree, or undefined when it has none. */
  private async tip(git: ShadowGit): Promise<Tip | undefined> {
    const ref = this.options.taskRef;
    const [commit, tree] = (await git.run(["cat-file", "--batch-check"], { input: `${ref}\n${ref}^{tree}\n` })).split("\n");
    return tipOf(commit, tree);
  }

  /** The tree of a checkpoint, after checking the hash is one. */
  private async treeOf(git: ShadowGit, hash: string): Promise<string> {
    if (!HASH.test(hash)) throw new Error(`"${hash}" is not a checkpoint hash`);
    const [line] = (await git.run(["cat-file", "--batch-check"], { input: `${hash}^{tree}\n` })).split("\n");
    return checkpointTree(hash, line);
  }

  /** treeOf and tip in one `cat-file`. */
  private async treeAndTip(git: ShadowGit, hash: string): Promise<[string, Tip | undefined]> {
    if (!HASH.test(hash)) throw new Error(`"${hash}" is not a checkpoint hash`);
    const ref = this.options.taskRef;
    const [line, commit, tree] = (await git.run(["cat-file", "--batch-check"], { input: `${hash}^{tree}\n${ref}\n${ref}^{tree}\n` })).split("\n");
    return [checkpointTree(hash, line), tipOf(commit, tree)];
  }

  /**
   * Runs `body` alone on the shadow repository, under its own name for the index, making the
   * repository first if needed (or, given `whenNoRepository`, answering that instead); errors
   * name the operation and the workspace.
   */
  private operation<T>(name: string, options: { whenNoRepository?: () => T }, body: (git: ShadowGit) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const { location } = this;
      let lock;
      let temp: string | undefined;
      try {
        lock = await acquireStoreLock(location.lockFile);
        if (options.whenNoRepository && !(await exists(path.join(location.gitDir, "HEAD")))) return options.whenNoRepository();
        await ensureShadowRepository(location, { binary: this.options.binary, personalExcludesFile: this.options.stage.personalExcludesFile });
        await removeLeftoverGitFiles(location.gitDir, path.join(location.gitDir, REF_FOLDER));
        temp = tempPathFor(location.indexFile);
        await shareIndex(location.indexFile, temp);
        const result = await body(new ShadowGit({ gitDir: location.gitDir, workTree: location.workTree }, this.options.binary, temp));
        // Renaming a link onto the file it links to does nothing: the unlink then drops it.
        if (await exists(temp)) await rename(temp, location.indexFile);
        await unlink(temp).catch(() => undefined);
        temp = undefined;
        return result;
      } catch (error) {
        throw error instanceof CheckpointError ? error : new CheckpointError(name, location.workTree, errorText(error));
      } finally {
        if (temp !== undefined) await removeQuietly([temp, `${temp}.lock`]);
        await lock?.release();
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** `cat-file --batch-check` lines for a ref and its tree: the tip, or undefined when the ref is missing. */
function tipOf(commit: string | undefined, tree: string | undefined): Tip | undefined {
  const hash = commit?.split(" ")[0];
  const treeHash = tree?.split(" ")[0];
  if (commit?.endsWith("missing") || !hash || !treeHash) return undefined;
  return { hash, tree: treeHash };
}

/** The tree from a `cat-file --batch-check` line for `<hash>^{tree}`. */
function checkpointTree(hash: string, line: string | undefined): string {
  const [tree, type] = (line ?? "").split(" ");
  if (type !== "tree" || !tree) throw new Error(`there is no checkpoint ${hash} in the store`);
  return tree;
}

/**
 * Like Promise.all, but waits for every promise before throwing the first failure, so no git
 * command of an operation still runs after it has failed (and released the store's lock).
 */
async function settled<T extends unknown[]>(...promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const outcomes = await Promise.allSettled(promises);
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as T;
}

/**
 * Gives the operation its own name for the index: a hard link, which git never writes through
 * (it writes a new file and renames it over the name), so the real index stays as it was until
 * the operation succeeds. A link also keeps the index's own mtime, which git's racy-file check
 * depends on: a file changed within the timestamp granularity of the index's last write looks
 * unchanged by its stat data, and git reads its content only because the index is as new as it.
 * Where links are not possible, a copy with the original's mtime (rounded down, to stay safe).
 */
async function shareIndex(index: string, name: string): Promise<void> {
  try {
    await link(index, name);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return; // no index yet: git starts an empty one
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw error;
  }
  await copyFile(index, name);
  const { atimeNs, mtimeNs } = await stat(index, { bigint: true });
  const seconds = (ns: bigint) => Number(ns / 1000n) / 1e6;
  await utimes(name, seconds(atimeNs), seconds(mtimeNs));
}


async function removeQuietly(files: readonly string[]): Promise<void> {
  for (const file of files) await unlink(file).catch(() => undefined);
}
