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
 * - a restore of the first checkpoint after those rounds, and changes() of it, for scale.
 * `RUNS=1 ROUNDS=20 npm run bench checkpoints` for a shorter run.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { CheckpointStore, checkpointStoreSize } from "../src/core/checkpoints";

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
      await rm(join(copy, ".git"), { recursive: true, force: true });
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

    t = performance.now();
    const changes = await store.changes(first);
    const changesMs = performance.now() - t;
    t = performance.now();
    const restored = await store.restoreFiles(first);
    console.log(`for scale: changes() of the first checkpoint ${ms(changesMs)} (${changes.length} files); restoring it ${ms(performance.now() - t)} (${restored.written.length} files)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
