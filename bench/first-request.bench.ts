/**
 * What checkpoints add to the time until a task's first API request: the real Controller, Task
 * and SDK against the scripted model server, in a workspace of 5,000 source files and a
 * node_modules folder, with checkpoints on (the real git store, a fresh shadow repository each
 * run, so the initial checkpoint is a full one) and off, interleaved. The initial checkpoint
 * runs off the request path, so the target is under 50 ms added (median of RUNS pairs).
 * `RUNS=3 npm run bench first-request` for a shorter run.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness } from "../test/support/task-harness";

const RUNS = Number(process.env.RUNS ?? 7);
const SOURCE_FILES = 5_000;
const TARGET_ADDED_MS = 50;
const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

export async function run(): Promise<void> {
  const template = await mkdtemp(join(tmpdir(), "tandem-bench-first-"));
  await makeWorkspace(template);
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    off.push(await timeToFirstRequest(template, false));
    on.push(await timeToFirstRequest(template, true));
  }
  await rm(template, { recursive: true, force: true });
  const added = median(on.map((ms, i) => ms - off[i]!));
  console.log(`time to the first API request, ${SOURCE_FILES} source files + node_modules, median of ${RUNS}:`);
  console.log(`  checkpoints off ${median(off).toFixed(1)} ms, on ${median(on).toFixed(1)} ms (ratio ${(median(on) / median(off)).toFixed(2)})`);
  console.log(`  ${added <= TARGET_ADDED_MS ? "PASS" : "MISS"} checkpoints add ${added.toFixed(1)} ms (target under ${TARGET_ADDED_MS})`);
}

async function timeToFirstRequest(template: string, checkpoints: boolean): Promise<number> {
  const harness = await startHarness({ provider: "anthropic", turns: [done], checkpoints, answer: (ask) => (ask.ask === "completion_result" ? { type: "yes" } : undefined) });
  try {
    // The harness's workspace is empty: point it at a copy of the big one.
    await rm(harness.workspace, { recursive: true, force: true });
    await mkdir(harness.workspace);
    await cp(template, harness.workspace, { recursive: true });
    const started = performance.now();
    await harness.start("Go");
    await harness.server.waitForRequests(1);
    const ms = performance.now() - started;
    await harness.finished();
    return ms;
  } finally {
    await harness.dispose();
  }
}

async function makeWorkspace(root: string): Promise<void> {
  await writeFile(join(root, ".gitignore"), "dist/\n");
  for (let i = 0; i < SOURCE_FILES; i++) {
    const dir = join(root, "src", `m${i % 50}`, `d${i % 7}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `f${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  for (let i = 0; i < 2_000; i++) {
    const dir = join(root, "node_modules", `pkg${i % 100}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `index${i}.js`), "module.exports = {};\n".repeat(50));
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
