/**
 * What starting Tandem costs, in CPU time (user + system, which a busy machine does not inflate
 * as it does the clock), against `node -e 0` measured in the same run, interleaved:
 * - the CLI: `node dist/cli.js --help`, `--version` and a mistake in the arguments, each a whole
 *   process (target: at most 2x `node -e 0`), and `--list-tasks`, which loads its own small bundle
 *   (cli-history.js), not the agent's;
 * - opening the panel: what the extension host does when the page first says "ready" (load
 *   dist/core.js with its code cache, the sandbox, the MCP hub, the WebviewSession, the first
 *   state: bench/open-panel.ts, bundled into one file and run in plain Node), as a process would
 *   spend it: `node -e 0` plus that (target: at most 2x). Printed apart: the first open of a
 *   build (no code cache yet), and the same open without the sandbox, whose check of the machine
 *   starts after the first state.
 * Each process's CPU is read at its exit by a preloaded file (process.cpuUsage: all its threads).
 * The processes get this environment, as `/usr/bin/time node dist/cli.js --help` would. With
 * NODE_EXTRA_CA_CERTS set, every Node start reads those certificates, so the ratios against a
 * `node -e 0` without it are printed too.
 * Runs against the bundles in dist/ (it builds only its own harness): `npm run package` first.
 * `RUNS=5 npm run bench startup` for a shorter run.
 */
import { spawnSync } from "node:child_process";
import { buildSync } from "esbuild";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNS = Number(process.env.RUNS ?? 15);
const TARGET_RATIO = 2;
const REPO = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const DIST = join(REPO, "dist");

export async function run(): Promise<void> {
  if (!["cli.js", "cli-main.js", "core.js", "extension.js"].every((file) => existsSync(join(DIST, file)))) {
    console.log("  no bundles in dist/: run npm run package first");
    return;
  }
  printSizes();
  const temp = mkdtempSync(join(tmpdir(), "tandem-bench-startup-"));
  try {
    const envs: Record<string, NodeJS.ProcessEnv> = { "": process.env };
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const { NODE_EXTRA_CA_CERTS: _certificates, ...bare } = process.env;
      envs[" without NODE_EXTRA_CA_CERTS"] = bare;
    }
    const cpu = processCpu(temp);
    const cli = (...args: string[]) => [join(DIST, "cli.js"), ...args];
    const commands: Record<string, string[]> = {
      "node -e 0": ["-e", "0"],
      "tandem --help": cli("--help"),
      "tandem --version": cli("--version"),
      "tandem --plan --act go (exit 64)": cli("--plan", "--act", "go"),
      "tandem --list-tasks (cli-history.js)": cli("--list-tasks", "--storage", join(temp, "tasks"), "--cwd", temp),
    };
    const cache = join(temp, "code-cache");
    const harness = bundleOpenPanel(temp);
    const openPanel = (sandbox: boolean) => openPanelCpu(harness, cache, sandbox);
    const firstOpen = openPanel(true);
    const panels = { "open the panel": true, "open the panel without the sandbox": false };
    const times: Record<string, number[]> = {};
    for (let i = 0; i < RUNS; i++) {
      for (const [suffix, env] of Object.entries(envs)) {
        for (const [name, args] of Object.entries(commands)) (times[name + suffix] ??= []).push(cpu(args, env));
      }
      for (const [name, sandbox] of Object.entries(panels)) (times[name] ??= []).push(openPanel(sandbox));
    }
    const ms = (name: string) => median(times[name]!);
    console.log(`CPU time (user + system), median of ${RUNS}, interleaved; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores:`);
    for (const suffix of Object.keys(envs)) {
      for (const name of Object.keys(commands)) console.log(`  ${(name + suffix).padEnd(70)} ${ms(name + suffix).toFixed(1).padStart(6)} ms  ${(ms(name + suffix) / ms(`node -e 0${suffix}`)).toFixed(2)}x`);
    }
    for (const suffix of Object.keys(envs)) {
      for (const name of ["tandem --help", "tandem --version", "tandem --plan --act go (exit 64)"]) verdict(`${name}${suffix}`, ms(name + suffix) / ms(`node -e 0${suffix}`));
    }
    console.log('opening the panel: the CPU of the host from the page\'s "ready" to its first state; as a process, node -e 0 plus that:');
    const open = { "first open of a build (no code cache yet)": firstOpen, ...Object.fromEntries(Object.keys(panels).map((name) => [name, ms(name)])) };
    for (const [name, cost] of Object.entries(open)) {
      const against = Object.keys(envs).map((suffix) => `${((ms(`node -e 0${suffix}`) + cost) / ms(`node -e 0${suffix}`)).toFixed(2)}x${suffix}`);
      console.log(`  ${name.padEnd(42)} ${cost.toFixed(1).padStart(6)} ms  ${against.join(", ")}`);
    }
    for (const suffix of Object.keys(envs)) verdict(`opening the panel${suffix}`, (ms(`node -e 0${suffix}`) + ms("open the panel")) / ms(`node -e 0${suffix}`));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function verdict(name: string, ratio: number): void {
  console.log(`  ${ratio <= TARGET_RATIO ? "PASS" : "MISS"} ${name}: ${ratio.toFixed(2)}x node -e 0 (target at most ${TARGET_RATIO}x)`);
}

/** Runs `node ARGS` and gives the CPU ms it used up to its exit, read by a preloaded file. */
function processCpu(temp: string): (args: string[], env: NodeJS.ProcessEnv) => number {
  const preload = join(temp, "cpu-at-exit.cjs");
  const out = join(temp, "cpu.json");
  writeFileSync(preload, `process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").writeFileSync(${JSON.stringify(out)}, String((u.user + u.system) / 1000)); });`);
  return (args, env) => {
    rmSync(out, { force: true });
    // HOME in the temp folder: nothing measured reads or writes the person's data folder.
    const child = spawnSync(process.execPath, ["--require", preload, ...args], { cwd: temp, env: { ...env, HOME: temp }, encoding: "utf8" });
    if (child.error) throw child.error;
    if (!existsSync(out)) throw new Error(`node ${args.join(" ")} exited without its CPU time (${child.status}): ${child.stderr}`);
    return Number(readFileSync(out, "utf8"));
  };
}

/**
 * bench/open-panel.ts as one CommonJS file, so it runs in plain Node as the extension host does:
 * under tsx, every require() the core makes would pass through tsx's loader hooks and be counted.
 */
function bundleOpenPanel(temp: string): string {
  const outfile = join(temp, "open-panel.cjs");
  buildSync({ entryPoints: [join(REPO, "bench/open-panel.ts")], outfile, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "error" });
  return outfile;
}

/** The CPU ms the bundled open-panel harness reports for one panel open, with the code cache kept in `cache`. */
function openPanelCpu(harness: string, cache: string, sandbox: boolean): number {
  const args = [harness, DIST, cache, ...(sandbox ? [] : ["--no-sandbox"])];
  const child = spawnSync(process.execPath, args, { cwd: REPO, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`bench/open-panel.ts failed (${child.status}): ${child.stderr}`);
  return (JSON.parse(child.stdout) as { cpuMs: number }).cpuMs;
}

function printSizes(): void {
  const files = ["cli.js", "cli-main.js", "cli-main.js.cache", "extension.js", "core.js", ...readdirSync(join(DIST, "lazy")).filter((f) => f.endsWith(".js")).map((f) => `lazy/${f}`)];
  console.log("bundle sizes in dist/ (`tandem --help` reads cli.js only; the panel, extension.js then core.js):");
  for (const file of files) if (existsSync(join(DIST, file))) console.log(`  ${file.padEnd(30)} ${(statSync(join(DIST, file)).size / 1024).toFixed(0).padStart(6)} KB`);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
