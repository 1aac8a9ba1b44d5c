/**
 * What hooks cost a task, against a baseline measured in the same run:
 * - a hook point where no hook exists (what every tool call pays twice, PreToolUse and PostToolUse,
 *   once hooks are on): the folders read, nothing run; against one run of the smallest hook (a
 *   `#!/bin/sh` that exits at once). Target: at most 0.05x.
 * - one run of that sh hook and of a node hook, for scale (a process start dominates).
 * `RUNS=50 npm run bench hooks` for a longer run.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { WorkspaceHooks } from "../src/core/hooks";
import { DEFAULT_AGENT_SETTINGS } from "../src/shared/settings";

const RUNS = Number(process.env.RUNS ?? 20);
const TARGET_RATIO = 0.05;

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), "tandem-hooks-bench-"));
  try {
    const hooks = new WorkspaceHooks({ globalFolder: path.join(root, "global"), trustWorkspace: () => true }).forTask({
      taskId: "bench",
      roots: [root],
      settings: () => DEFAULT_AGENT_SETTINGS,
      say: async () => undefined,
    });
    const empty = await timeEach(RUNS * 20, () => hooks.run("PreCompact", { reason: "bench", messages: 0 }));
    await executable(path.join(root, ".tandem", "hooks", "PreCompact"), "#!/bin/sh\nexit 0\n");
    const sh = await timeEach(RUNS, () => hooks.run("PreCompact", { reason: "bench", messages: 0 }));
    await executable(path.join(root, ".tandem", "hooks", "PreCompact"), "#!/usr/bin/env node\n");
    const node = await timeEach(RUNS, () => hooks.run("PreCompact", { reason: "bench", messages: 0 }));
    const ratio = empty / sh;
    console.log(`Hooks (median of ${RUNS}): a point with no hook ${(empty * 1000).toFixed(0)} µs; one sh hook ${sh.toFixed(1)} ms; one node hook ${node.toFixed(1)} ms`);
    console.log(`  ${ratio <= TARGET_RATIO ? "PASS" : "MISS"} a point with no hook ${ratio.toFixed(3)}x one sh hook's run (target <= ${TARGET_RATIO}x)`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function executable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

/** The median milliseconds of `fn` over `runs` runs. */
async function timeEach(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
