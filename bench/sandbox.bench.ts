/**
 * What the OS sandbox adds to each command, run as the product runs them: the core's TaskCommands
 * (the task's walk of the workspace, CommandSandbox.wrap, the launcher) through the NodeTerminal
 * (a shell in its own process group), against the same TaskCommands without a sandbox as the
 * baseline, measured in the same run and interleaved (each round runs every command in every
 * workspace, plain then sandboxed; "added" is the median of those pairs' differences).
 * Commands: `true`, and a small `node -e` script. Workspaces: a small one (40 files) and a large
 * one (20,000 files in nested folders), each with 10 .env or *.pem files the sandbox must hide, so
 * that only the size differs. Printed: medians of 20, as a ratio and as milliseconds added
 * (target under 50 ms), and how much more the large workspace adds than the small one (target:
 * nothing that grows with it, under 10 ms). Each hidden path is one more mount for bubblewrap, so
 * a third workspace, as large with 200 secret files, prints what one hidden path costs (past 48
 * the core hides their folders whole instead: workspace-scan.ts).
 * The session's first command, with no walk started ahead, waits for the walk of the workspace:
 * printed apart, once. A task starts its walk when it begins (the sandbox participant), so its
 * first command comes after the model's first answer: in the large workspace, pairs of a task's
 * first command and a later one of the same task, for a new session (its first walk, the answer
 * after REPLY_MS) and for a later task of a session (the answer at once, the task's walk still
 * running, so the session's last walk serves); target: the first adds under 50 ms to the later.
 * Between two commands the bench pauses for 2.5 walks (outside the timing): in a task a
 * model turn separates them, and the walk that a command's end starts runs in that gap.
 * The sandbox is the shipped one, dist/core.js's (`npm run package` first): the bundle swaps
 * some of the library's modules for Tandem's (esbuild-options.mjs), so the source would measure
 * work the product does not do. The rest (the walk, the terminal) is the source's.
 * `RUNS=5 npm run bench sandbox` for a shorter run.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { IgnoreController } from "../src/core/ignore/ignore-controller";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CommandSandbox } from "../src/core/sandbox/command-sandbox";
import { loadCore } from "../src/host/vscode/core-bundle";
import { TaskCommands } from "../src/core/sandbox/task-commands";
import { scanWorkspace } from "../src/core/sandbox/workspace-scan";
import { NodeTerminal } from "../src/host/node/node-terminal";
import { DEFAULT_SANDBOX_SETTINGS } from "../src/shared/settings";

const RUNS = Number(process.env.RUNS ?? 20);
const LARGE_FILES = 20_000;
/** The third workspace: 10 times the secrets of the large one, to price one hidden path. */
const MANY_SECRETS = "large, 200 secrets";
const TARGET_ADDED_MS = 50;
const TARGET_GROWTH_MS = 10;
/** Stands for the model's first answer, from the task's start to its first command: a fast model's short reply. */
const REPLY_MS = 500;
const COMMANDS = {
  true: "true",
  "node -e": `${JSON.stringify(process.execPath)} -e "const fs = require('fs'); console.log(fs.readdirSync('.').length)"`,
} as const;

interface Workspace {
  readonly name: string;
  readonly root: string;
  readonly files: number;
}

interface Row {
  readonly workspace: Workspace;
  /** Files and folders hidden from commands: one mount each. */
  readonly hidden: number;
  readonly command: string;
  readonly plain: number;
  readonly sandboxed: number;
  /** The median of the pairs' differences. */
  readonly added: number;
  /** Fastest sandboxed minus fastest plain: the cost with the least interference from a busy machine. */
  readonly floor: number;
}

export async function run(): Promise<void> {
  const dist = join(fileURLToPath(new URL(".", import.meta.url)), "..", "dist");
  if (!existsSync(join(dist, "core.js"))) {
    console.log("  no bundles in dist/: run npm run package first");
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), "tandem-bench-sandbox-"));
  const home = join(dir, "home");
  await mkdir(home);
  const { CommandSandbox: ShippedSandbox } = loadCore(dist, join(dir, "code-cache")).core;
  const sandbox: CommandSandbox = ShippedSandbox.create({ ...DEFAULT_SANDBOX_SETTINGS, mode: "on" }, { home });
  try {
    const status = await sandbox.ready();
    if (!status.active) {
      console.log(`SKIP the sandbox is not available here: ${status.reason ?? "no reason given"}`);
      return;
    }
    // Milliseconds depend on the machine and what else it runs; the ratios and differences less so.
    const load = loadavg()[0] ?? 0;
    console.log(
      `sandbox: ${status.technology ?? "?"}, network ${status.network}; medians of ${RUNS} runs per figure; ` +
        `${availableParallelism()} CPUs, load average ${load.toFixed(1)}`,
    );
    const workspaces = [
      await makeWorkspace(join(dir, "small"), "small", 40, 4),
      await makeWorkspace(join(dir, "large"), "large", LARGE_FILES, 2000),
      await makeWorkspace(join(dir, "many"), MANY_SECRETS, LARGE_FILES, 100),
    ];
    const prepared: Prepared[] = [];
    try {
      for (const workspace of workspaces) prepared.push(await prepare(sandbox, workspace));
      const rows = await measure(prepared);
      const large = prepared.find((p) => p.workspace.name === "large") as Prepared;
      const firsts = await measureFirstCommands(sandbox, large);
      report(rows);
      reportFirstCommands(large, firsts);
    } finally {
      for (const p of prepared) p.dispose();
    }
  } finally {
    await sandbox.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A workspace with its plain and sandboxed TaskCommands, walked once and warmed up. */
interface Prepared {
  readonly workspace: Workspace;
  readonly plain: TaskCommands;
  readonly confined: TaskCommands;
  /** The session's view of the workspace: its walks are kept per guard. */
  readonly guard: IgnoreController;
  readonly hidden: number;
  /** After a sandboxed command, the walk it starts runs this long in the background. */
  readonly walkMs: number;
  dispose(): void;
}

async function prepare(sandbox: CommandSandbox, workspace: Workspace): Promise<Prepared> {
  const guard = await IgnoreController.create(workspace.root);
  const terminal = new NodeTerminal();
  const plain = new TaskCommands(terminal, undefined, [workspace.root], guard);
  const confined = new TaskCommands(terminal, sandbox, [workspace.root], guard);
  const walkStarted = performance.now();
  const findings = await scanWorkspace([workspace.root], guard);
  const walkMs = performance.now() - walkStarted;
  const first = await timeCommand(confined, "true", workspace.root);
  console.log(
    `${workspace.name} workspace: ${workspace.files} files, ${findings.hiddenReads.length} paths hidden from commands` +
      `${findings.hiddenWhole.length > 0 ? ` (${findings.hiddenWhole.length} of them folders hidden whole, with ${await filesIn(findings.hiddenWhole)} files)` : ""}; ` +
      `a walk takes ${ms(walkMs)}, the session's first sandboxed command with no walk started ahead (waits for one) ${ms(first)}`,
  );
  // One untimed run each: the shell, node and the sandbox's files are in the page cache for both.
  for (const command of Object.values(COMMANDS)) {
    await timeCommand(plain, command, workspace.root);
    await timeCommand(confined, command, workspace.root);
    await delay(20 + 2.5 * walkMs);
  }
  return {
    workspace,
    plain,
    confined,
    guard,
    hidden: findings.hiddenReads.length,
    walkMs,
    dispose: () => {
      plain.dispose();
      confined.dispose();
      guard.dispose();
    },
  };
}

/**
 * Round after round, every command in every workspace, plain then sandboxed: the load of a shared
 * machine drifts, and this spreads the drift over all figures alike. "Added" is the median of the
 * differences of each plain and sandboxed pair, run one right after the other.
 */
async function measure(prepared: readonly Prepared[]): Promise<Row[]> {
  const samples = new Map<string, { plain: number[]; sandboxed: number[]; added: number[] }>();
  for (let i = 0; i < RUNS; i++) {
    for (const p of prepared) {
      for (const [name, command] of Object.entries(COMMANDS)) {
        const plain = await timeCommand(p.plain, command, p.workspace.root);
        const sandboxed = await timeCommand(p.confined, command, p.workspace.root);
        const key = `${p.workspace.name}\0${name}`;
        const sample = samples.get(key) ?? { plain: [], sandboxed: [], added: [] };
        samples.set(key, sample);
        sample.plain.push(plain);
        sample.sandboxed.push(sandboxed);
        sample.added.push(sandboxed - plain);
        await delay(20 + 2.5 * p.walkMs);
      }
    }
  }
  return prepared.flatMap((p) =>
    Object.keys(COMMANDS).map((command) => {
      const sample = samples.get(`${p.workspace.name}\0${command}`) as { plain: number[]; sandboxed: number[]; added: number[] };
      return { workspace: p.workspace, hidden: p.hidden, command, plain: median(sample.plain), sandboxed: median(sample.sandboxed), added: median(sample.added), floor: Math.min(...sample.sandboxed) - Math.min(...sample.plain) };
    }),
  );
}

interface FirstCommands {
  /** A new session's task: its walk (the session's first) started at the task's start, the command REPLY_MS later. */
  readonly newSession: { first: number[]; added: number[] };
  /** A later task of the session: the command at once, while the task's walk runs. */
  readonly laterTask: { first: number[]; added: number[] };
}

/**
 * A task's first sandboxed command against a later one of the same task, run one after the other
 * (the difference is what the first command waited for). A new session is a new guard: the walks
 * are kept per guard (CommandSandbox.walksOf).
 */
async function measureFirstCommands(sandbox: CommandSandbox, p: Prepared): Promise<FirstCommands> {
  const root = p.workspace.root;
  const result: FirstCommands = { newSession: { first: [], added: [] }, laterTask: { first: [], added: [] } };
  const pair = async (commands: TaskCommands, replyMs: number, into: { first: number[]; added: number[] }) => {
    commands.walkAhead(); // the task begins (the sandbox participant)
    if (replyMs > 0) await delay(replyMs);
    const first = await timeCommand(commands, "true", root);
    await delay(20 + 2.5 * p.walkMs);
    const later = await timeCommand(commands, "true", root);
    into.first.push(first);
    into.added.push(first - later);
    commands.dispose();
  };
  for (let i = 0; i < RUNS; i++) {
    const guard = await IgnoreController.create(root);
    try {
      await pair(new TaskCommands(new NodeTerminal(), sandbox, [root], guard), REPLY_MS, result.newSession);
    } finally {
      guard.dispose();
    }
    await pair(new TaskCommands(new NodeTerminal(), sandbox, [root], p.guard), 0, result.laterTask);
    await delay(20 + 2.5 * p.walkMs);
  }
  return result;
}

function reportFirstCommands(p: Prepared, firsts: FirstCommands): void {
  const newSession = median(firsts.newSession.added);
  const laterTask = median(firsts.laterTask.added);
  console.log(
    `${p.workspace.name} workspace (a walk ${ms(p.walkMs)}), a task's first sandboxed command: in a new session, the walk started with the task and ` +
      `the model's first answer ${REPLY_MS} ms later, ${ms(median(firsts.newSession.first))} (${ms(newSession)} over a later command); ` +
      `in a later task, the answer at once while the task's walk runs (the session's last walk serves), ${ms(median(firsts.laterTask.first))} (${ms(laterTask)} over a later command)`,
  );
  const worst = Math.max(newSession, laterTask);
  console.log(`load average at the end ${(loadavg()[0] ?? 0).toFixed(1)}`);
  console.log(`${worst <= TARGET_ADDED_MS ? "PASS" : "MISS"} target: the first command waits for no walk, at most ${TARGET_ADDED_MS} ms over a later command (worst ${ms(worst)})`);
}

/** From asking TaskCommands to run it to its completion, as execute_command waits for it. */
async function timeCommand(commands: TaskCommands, command: string, cwd: string): Promise<number> {
  const started = performance.now();
  const running = commands.run(command, { cwd, signal: new AbortController().signal, timeoutMs: 30_000 });
  let output = "";
  running.onOutput((text) => (output += text));
  const exit = await running.completion;
  const elapsed = performance.now() - started;
  if (exit.exitCode !== 0) throw new Error(`${command} ${running.confinement.kind === "sandboxed" ? "in" : "outside"} the sandbox exited with ${exit.exitCode ?? exit.signal}: ${output}`);
  return elapsed;
}

function report(rows: readonly Row[]): void {
  for (const row of rows) {
    console.log(
      `${row.workspace.name.padEnd(17)} ${row.command.padEnd(7)} plain ${ms(row.plain)}, sandboxed ${ms(row.sandboxed)}: ` +
        `ratio ${(row.sandboxed / row.plain).toFixed(2)}x, added ${ms(row.added)} (fastest vs fastest ${ms(row.floor)})`,
    );
  }
  const worst = Math.max(...rows.filter((r) => r.workspace.name !== MANY_SECRETS).map(added));
  console.log(`${worst < TARGET_ADDED_MS ? "PASS" : "MISS"} target: under ${TARGET_ADDED_MS} ms added per command (worst ${ms(worst)})`);
  let growth = -Infinity;
  for (const command of Object.keys(COMMANDS)) {
    const small = rows.find((r) => r.command === command && r.workspace.name === "small");
    const large = rows.find((r) => r.command === command && r.workspace.name === "large");
    if (!small || !large) continue;
    const more = added(large) - added(small);
    growth = Math.max(growth, more);
    console.log(`${command.padEnd(7)} the large workspace adds ${ms(more)} more than the small one (${large.workspace.files} vs ${small.workspace.files} files)`);
  }
  console.log(`load average at the end ${(loadavg()[0] ?? 0).toFixed(1)}`);
  console.log(`${growth < TARGET_GROWTH_MS ? "PASS" : "MISS"} target: no per-command cost that grows with the workspace, under ${TARGET_GROWTH_MS} ms (${ms(growth)})`);
  const large = rows.find((r) => r.command === "true" && r.workspace.name === "large");
  const many = rows.find((r) => r.command === "true" && r.workspace.name === MANY_SECRETS);
  if (large && many && many.hidden > large.hidden) {
    const each = (added(many) - added(large)) / (many.hidden - large.hidden);
    console.log(`each hidden path (a mount) adds ${ms(each)} per command (\`true\`: ${large.hidden} hidden ${ms(added(large))}, ${many.hidden} hidden ${ms(added(many))})`);
  }
}

/** `files` files in folders of 50, three levels deep; one in `secretEvery` is a .env.* or a .pem. */
async function makeWorkspace(root: string, name: string, files: number, secretEvery: number): Promise<Workspace> {
  let secrets = 0;
  const writes: Promise<void>[] = [];
  for (let i = 0; i < files; i++) {
    const folder = join(root, `pkg${Math.floor(i / 2500)}`, `mod${Math.floor(i / 250) % 10}`, `dir${Math.floor(i / 50) % 5}`);
    if (i % 50 === 0) await mkdir(folder, { recursive: true });
    const secret = i % secretEvery === secretEvery - 1;
    if (secret) secrets++;
    const file = secret ? (secrets % 2 ? `.env.local${i}` : `key${i}.pem`) : `file${i}.ts`;
    writes.push(writeFile(join(folder, file), secret ? "SECRET=marker\n" : `export const n${i} = ${i};\n`));
    if (writes.length >= 500) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  return { name, root, files };
}

async function filesIn(folders: readonly string[]): Promise<number> {
  let count = 0;
  for (const folder of folders) count += (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
  return count;
}

function added(row: Row): number {
  return row.added;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
