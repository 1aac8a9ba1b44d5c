/**
 * What checkpoints cost, against raw git on the same files in the same run. The workspace: 5,000
 * source files of realistic sizes in nested folders with a .gitignore, plus a 200 MB node_modules
 * of 20,000 files. The baseline: a copy of the tracked files only, where plain git runs
 * `git add -A && git commit` (its own defaults, loose objects), interleaved with the store's runs.
 * Printed, as medians:
 * - the initial checkpoint (open + initialize on a fresh store) against `git init && git add -A &&
 *   git commit` on the copy: target within 1.5x;
 * - a round's save after 10 edits against raw git committing the same 10 edits: target under
 *   300 ms and within 2x;
 * - a save when nothing changed (against `git status` on the copy, for scale);
 * - after 50 rounds of small edits, the store's bytes on disk against the tracked files' sizes:
 *   target under 1.2x (raw git's .git printed beside it);
 * - changes() of the first checkpoint after those rounds (and a round adding and deleting
 *   files), for scale;
 * - a restore of that first checkpoint as the panel does it (open the task's store, restoreFiles)
 *   against raw `git checkout --no-overlay <commit> -- .` of the same commit on the copy (the same
 *   files written and deleted, the index updated): target within 3x;
 * - the same restore through the CLI bundle, `node dist/cli.js checkpoints restore 0 --scope
 *   files` (skipped when dist/ is not built; TANDEM_CLI=path picks another bundle), with a run
 *   of the bundle that restores nothing beside it for its start-up.
 * `RUNS=1 ROUNDS=20 npm run bench checkpoints` for a shorter run.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { CheckpointStore, checkpointStoreSize } from "../src/core/checkpoints";
import { TaskHistory } from "../src/core/storage/task-history";
import { TaskStorage } from "../src/core/storage/task-storage";
import type { ChatMessage } from "../src/shared/messages";
import { ZERO_USAGE } from "../src/shared/usage";

const RUNS = Number(process.env.RUNS ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 50);
const SOURCE_FILES = 5_000;
const DEPENDENCY_FILES = 20_000;
const DEPENDENCY_BYTES = 200 * 1024 * 1024;
const EDITS_PER_ROUND = 10;
const TARGET_INITIAL_RATIO = 1.5;
const TARGET_ROUND_MS = 300;
const TARGET_ROUND_RATIO = 2;
const TARGET_SIZE_RATIO = 1.2;
const TARGET_RESTORE_RATIO = 3;
/** Files the round before the restores adds, and files it deletes. */
const CHURN_FILES = 20;
/** The CLI bundle the CLI restore line runs (`npm run package` builds it). */
const CLI = process.env.TANDEM_CLI ?? join(process.cwd(), "dist", "cli.js");

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "tandem-bench-checkpoints-"));
  try {
    const started = performance.now();
    const workspace = join(dir, "workspace");
    const copy = join(dir, "raw-git");
    const random = lcg(14);
    const sources = await makeSources(workspace, random);
    await makeDependencies(join(workspace, "node_modules"));
    await cp(workspace, copy, { recursive: true, filter: (source) => !source.includes("node_modules") });
    console.log(
      `workspace: ${SOURCE_FILES} source files (${mb(sources.bytes)}) and a ${mb(DEPENDENCY_BYTES)} node_modules of ${DEPENDENCY_FILES} files, ` +
        `made in ${(performance.now() - started) / 1000 | 0} s; medians of ${RUNS} runs, ${ROUNDS} rounds; ${availableParallelism()} CPUs, load ${(loadavg()[0] ?? 0).toFixed(1)}; ${gitVersion()}`,
    );

    let t: number;
    // The initial checkpoint, each run on a fresh store and a fresh raw repository.
    const ours: number[] = [];
    const raw: number[] = [];
    const packing: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Retries: a commit may have left raw git's own gc --auto running in the background.
      await rm(join(copy, ".git"), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      raw.push(time(() => rawGit(copy, ["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "initial"])));
      const storageRoot = join(dir, `storage-${i}`);
      t = performance.now();
      const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "bench" });
      await store.initialize();
      ours.push(performance.now() - t);
      t = performance.now();
      await store.whenIdle();
      packing.push(performance.now() - t);
      if (i < RUNS - 1) await rm(storageRoot, { recursive: true, force: true });
    }
    const initial = ratioLine("initial checkpoint (open + initialize)", ours, raw, "git init && git add -A && git commit");
    console.log(`then, after it returned, the packing of its loose trees: ${ms(median(packing))}`);
    console.log(`${initial <= TARGET_INITIAL_RATIO ? "PASS" : "MISS"} target: initial checkpoint within ${TARGET_INITIAL_RATIO}x of raw git (${initial.toFixed(2)}x)`);

    const storageRoot = join(dir, `storage-${RUNS - 1}`);
    const store = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "bench", onWarning: (message) => console.log(`warning: ${message}`) });
    const first = await store.initialize();

    // Saves when nothing changed.
    const unchanged: number[] = [];
    const status: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const saved = await store.save("nothing");
      unchanged.push(performance.now() - t);
      if (saved.changed) throw new Error("a save with nothing changed made a commit");
      status.push(time(() => rawGit(copy, ["status", "--porcelain"])));
    }
    console.log(`save with nothing changed: ${ms(median(unchanged))} (raw git status on the copy: ${ms(median(status))})`);

    // Rounds of 10 edits, the same edits in both trees.
    const rounds: number[] = [];
    const rawRounds: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // In a task a model turn separates two saves; the packing a save leaves behind runs then.
      await store.whenIdle();
      for (let e = 0; e < EDITS_PER_ROUND; e++) {
        const file = sources.paths[Math.floor(random() * sources.paths.length)] as string;
        const line = `// round ${round} edit ${e}: ${word(random)} ${word(random)}\n`;
        for (const root of [workspace, copy]) await writeFile(join(root, file), (await readFile(join(root, file), "utf8")) + line);
      }
      const t = performance.now();
      const saved = await store.save(`round ${round}`);
      rounds.push(performance.now() - t);
      if (!saved.changed) throw new Error(`round ${round} recorded no change`);
      rawRounds.push(time(() => rawGit(copy, ["add", "-A"], ["commit", "-q", "-m", `round ${round}`])));
    }
    const roundRatio = ratioLine(`a round's save after ${EDITS_PER_ROUND} edits`, rounds, rawRounds, "git add -A && git commit");
    const sorted = [...rounds].sort((a, b) => a - b);
    console.log(`round saves: fastest ${ms(sorted[0] as number)}, 90th percentile ${ms(sorted[Math.floor(sorted.length * 0.9)] as number)}, slowest ${ms(sorted.at(-1) as number)}`);
    console.log(`${median(rounds) < TARGET_ROUND_MS ? "PASS" : "MISS"} target: a round's save under ${TARGET_ROUND_MS} ms (median ${ms(median(rounds))})`);
    console.log(`${roundRatio <= TARGET_ROUND_RATIO ? "PASS" : "MISS"} target: a round's save within ${TARGET_ROUND_RATIO}x of raw git (${roundRatio.toFixed(2)}x)`);

    // Size after the rounds.
    const tracked = await trackedBytes(copy, sources.paths);
    const storeBytes = await checkpointStoreSize(storageRoot);
    const rawBytes = Number(execFileSync("du", ["-sk", join(copy, ".git")], { encoding: "utf8" }).split("\t")[0]) * 1024;
    const sizeRatio = storeBytes / tracked;
    console.log(
      `size after ${ROUNDS} rounds: store ${mb(storeBytes)} on disk, tracked files ${mb(tracked)}: ${sizeRatio.toFixed(2)}x ` +
        `(raw git's .git: ${mb(rawBytes)}, ${(rawBytes / tracked).toFixed(2)}x)`,
    );
    console.log(`${sizeRatio < TARGET_SIZE_RATIO ? "PASS" : "MISS"} target: the store under ${TARGET_SIZE_RATIO}x the tracked files (${sizeRatio.toFixed(2)}x)`);

    // One more round adds and deletes files, so the restore below deletes and recreates some too.
    await store.whenIdle();
    for (let i = 0; i < CHURN_FILES; i++) {
      const added = `packages/new${i % 4}/src/added${i}.ts`;
      const deleted = sources.paths[(i * 97) % sources.paths.length] as string;
      for (const root of [workspace, copy]) {
        await mkdir(join(root, added, ".."), { recursive: true });
        await writeFile(join(root, added), `export const added${i} = ${i};\n`);
        await rm(join(root, deleted));
      }
    }
    const last = (await store.save("adds and deletes")).hash;
    rawGit(copy, ["add", "-A"], ["commit", "-q", "-m", "adds and deletes"]);
    const rawFirst = execFileSync("git", ["rev-list", "--max-parents=0", "HEAD"], { cwd: copy, encoding: "utf8" }).trim();
    const rawLast = execFileSync("git", ["rev-parse", "HEAD"], { cwd: copy, encoding: "utf8" }).trim();

    // A gc --auto that raw git's commits started in the background would run beside the restores.
    await rawGcDone(copy);

    t = performance.now();
    const changes = await store.changes(first);
    console.log(`for scale: changes() of the first checkpoint ${ms(performance.now() - t)} (${changes.length} files)`);

    // Restores: the first checkpoint, from the latest, against raw git putting the copy back to
    // its first commit with `git checkout --no-overlay <commit> -- .` (writes the files that
    // differ, deletes the tracked files the commit lacks, updates the index: the same change set).
    // Then both go back to the latest, untimed, and settle (see settle()) before the next run.
    const restores: number[] = [];
    const rawRestores: number[] = [];
    let restored: Awaited<ReturnType<CheckpointStore["restoreFiles"]>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      await settle(store, copy);
      // As the panel's Restore files does it: the task's store opened, then restoreFiles.
      t = performance.now();
      const panelStore = await CheckpointStore.open({ storageRoot, workspaceRoot: workspace, taskId: "bench" });
      restored = await panelStore.restoreFiles(first);
      restores.push(performance.now() - t);
      rawRestores.push(time(() => rawGit(copy, ["checkout", "-q", "--no-overlay", rawFirst, "--", "."])));
      if ((await store.changes(first)).length > 0) throw new Error("the restore left differences from the first checkpoint");
      if (execFileSync("git", ["diff", "--name-only", rawFirst], { cwd: copy, encoding: "utf8" }) !== "") throw new Error("raw git's checkout left differences");
      await store.restoreFiles(last);
      rawGit(copy, ["checkout", "-q", "--no-overlay", rawLast, "--", "."]);
    }
    const done = restored as NonNullable<typeof restored>;
    const restoreRatio = ratioLine(
      `restoring the first checkpoint (open + restoreFiles, ${done.written.length} files written, ${done.deleted.length} deleted)`,
      restores,
      rawRestores,
      "git checkout --no-overlay <commit> -- .",
    );
    console.log(`${restoreRatio <= TARGET_RESTORE_RATIO ? "PASS" : "MISS"} target: a restore within ${TARGET_RESTORE_RATIO}x of raw git checkout (${restoreRatio.toFixed(2)}x)`);
    await cliRestore({ dir, storageRoot, workspace, first, last, store, copy, rawFirst, rawLast });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Before a timed restore: a second passes and both sides look at their workspace once (a save
 * that finds nothing new, `git status`), as a model's turn and the next save would. Files written
 * within the second of the index they were recorded in are ones git must read again at its
 * next look, raw git as much as the store: that cost belongs to the next round, not to a restore.
 */
async function settle(store: CheckpointStore, copy: string): Promise<void> {
  await store.whenIdle();
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await store.save("settled");
  rawGit(copy, ["status", "--porcelain"]);
}

/**
 * The restore as `tandem checkpoints restore 0 --scope files` does it: a saved task (this bench's
 * store's task, with two checkpoint rows: the first checkpoint and the latest) in the storage
 * folder, the CLI bundle run on it in a process of its own. Beside it, the same bundle asked for
 * a checkpoint number the task lacks: the start-up, the store's opening and the task's lookup,
 * without the restore.
 */
async function cliRestore(bench: { dir: string; storageRoot: string; workspace: string; first: string; last: string; store: CheckpointStore; copy: string; rawFirst: string; rawLast: string }): Promise<void> {
  const { dir, storageRoot, workspace, first, last, store, copy, rawFirst, rawLast } = bench;
  if (!(await stat(CLI).catch(() => undefined))) {
    console.log(`CLI restore: skipped, no bundle at ${CLI} (npm run package builds it)`);
    return;
  }
  const sourceFolder = join(process.cwd(), "src", "core", "checkpoints");
  const newestSource = Math.max(...(await Promise.all((await readdir(sourceFolder)).map(async (f) => (await stat(join(sourceFolder, f))).mtimeMs))));
  const stale = (await stat(CLI)).mtimeMs < newestSource ? " (the bundle is older than src/core/checkpoints: npm run package)" : "";
  const history = new TaskHistory(storageRoot, (error) => console.log(`warning: ${String(error)}`));
  await history.upsert({ id: "bench", text: "bench", startedAt: Date.now(), usage: ZERO_USAGE, status: "completed", workspace });
  const rows: ChatMessage[] = [
    { ts: 1, type: "say", say: "task", text: "bench", checkpoint: { hash: first, apiMessages: 0 } },
    { ts: 2, type: "say", say: "checkpoint_created", checkpoint: { hash: last, apiMessages: 0 } },
  ];
  await new TaskStorage(storageRoot, "bench").saveChatMessages(rows);
  // The bench's own HOME and XDG_CONFIG_HOME: the person's global excludes file is part of the
  // store's config, and a CLI that named another would rewrite it (and void git's untracked cache).
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, ...(process.env.XDG_CONFIG_HOME ? { XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME } : {}), XDG_DATA_HOME: join(dir, "data") };
  const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, "--cwd", workspace, "--storage", storageRoot, ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const runs: number[] = [];
  const raw: number[] = [];
  const startups: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await settle(store, copy);
    runs.push(time(() => cli("checkpoints", "restore", "0", "--scope", "files", "--task", "bench")));
    raw.push(time(() => rawGit(copy, ["checkout", "-q", "--no-overlay", rawFirst, "--", "."])));
    rawGit(copy, ["checkout", "-q", "--no-overlay", rawLast, "--", "."]);
    if ((await store.changes(first)).length > 0) throw new Error("the CLI's restore left differences from the first checkpoint");
    startups.push(
      time(() => {
        try {
          cli("checkpoints", "restore", "9", "--scope", "files", "--task", "bench");
        } catch {
          return; // "there is no 9": expected
        }
        throw new Error("the CLI restored a checkpoint the task lacks");
      }),
    );
    await store.restoreFiles(last);
  }
  const total = median(runs);
  const startup = median(startups);
  const ratio = total / median(raw);
  console.log(
    `CLI restore (node ${CLI.replace(`${process.cwd()}/`, "")} checkpoints restore 0 --scope files): ${ms(total)}, raw git checkout ${ms(median(raw))}: ratio ${ratio.toFixed(2)}x; ` +
      `of it, start-up, opening the store and finding the task ${ms(startup)} (the same run asking for a checkpoint the task lacks), the restore itself ${ms(total - startup)}${stale}`,
  );
  console.log(`${ratio <= TARGET_RESTORE_RATIO ? "PASS" : "MISS"} target: the CLI's restore within ${TARGET_RESTORE_RATIO}x of raw git checkout (${ratio.toFixed(2)}x)`);
}

/** Source files in nested folders, sizes spread like a real project's (median about 3 KB, a few far larger). */
async function makeSources(root: string, random: () => number): Promise<{ paths: string[]; bytes: number }> {
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < SOURCE_FILES; i++) {
    const file = `packages/p${i % 8}/src/area${Math.floor(i / 8) % 25}/part${Math.floor(i / 200) % 5}/module${i}.${["ts", "tsx", "js", "json", "md"][i % 5]}`;
    const size = Math.min(80_000, Math.round(Math.exp(8 + 0.9 * normal(random))));
    const text = codeLike(size, random);
    await mkdir(join(root, file, ".."), { recursive: true });
    await writeFile(join(root, file), text);
    paths.push(file);
    bytes += Buffer.byteLength(text);
  }
  await writeFile(join(root, ".gitignore"), "*.log\ncoverage/\n.env\n");
  await writeFile(join(root, "debug.log"), "ignored\n".repeat(1000));
  return { paths, bytes: bytes + 22 };
}

/** 200 MB in 20,000 files: 800 packages of 25 files. */
async function makeDependencies(root: string): Promise<void> {
  const chunk = Buffer.alloc(DEPENDENCY_BYTES / DEPENDENCY_FILES, "module.exports = function () { return 42; };\n");
  for (let p = 0; p < DEPENDENCY_FILES / 25; p++) {
    const folder = join(root, `package-${p}`, "lib");
    await mkdir(folder, { recursive: true });
    await Promise.all(Array.from({ length: 25 }, (_, f) => writeFile(join(folder, `file${f}.js`), chunk)));
  }
}

async function trackedBytes(root: string, paths: readonly string[]): Promise<number> {
  let total = (await stat(join(root, ".gitignore"))).size;
  for (const file of paths) total += (await stat(join(root, file))).size;
  return total;
}

/** Waits for a gc --auto that a raw commit started in the background (it holds gc.pid). */
async function rawGcDone(copy: string): Promise<void> {
  for (let waited = 0; waited < 60_000 && (await stat(join(copy, ".git", "gc.pid")).catch(() => undefined)); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function rawGit(cwd: string, ...commands: string[][]): void {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
  for (const args of commands) execFileSync("git", args, { cwd, env, stdio: ["ignore", "ignore", "inherit"] });
}

function gitVersion(): string {
  return execFileSync("git", ["--version"], { encoding: "utf8" }).trim();
}

function ratioLine(what: string, ours: number[], raw: number[], rawName: string): number {
  const ratio = median(ours) / median(raw);
  console.log(`${what}: Tandem ${ms(median(ours))}, raw ${rawName} ${ms(median(raw))}: ratio ${ratio.toFixed(2)}x`);
  return ratio;
}

function time(action: () => void): number {
  const t = performance.now();
  action();
  return performance.now() - t;
}

const WORDS = ["const", "return", "export", "function", "import", "value", "items", "result", "config", "await", "async", "props", "state", "index", "error", "options", "string", "number", "=>", "{", "}", "(", ")", ";"];

function codeLike(size: number, random: () => number): string {
  const lines: string[] = [];
  let length = 0;
  while (length < size) {
    const indent = "  ".repeat(Math.floor(random() * 4));
    const line = indent + Array.from({ length: 3 + Math.floor(random() * 9) }, () => word(random)).join(" ");
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

function word(random: () => number): string {
  return random() < 0.2 ? `name${Math.floor(random() * 5000)}` : (WORDS[Math.floor(random() * WORDS.length)] as string);
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 0x100000000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
