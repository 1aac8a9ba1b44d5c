/**
 * `npm run bench`: runs every bench/*.bench.ts, one after another, each in a process of its own
 * (a bench may leave globals behind: History's installs jsdom's window, after which the Anthropic
 * SDK takes the process for a browser). A benchmark reports its own PASS/MISS lines; only a crash
 * makes this exit non-zero. `npm run bench -- NAME` runs the files whose names contain NAME.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as path from "node:path";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2]; // optional: a substring of the bench file names to run
const ONE_FILE = "--one-file";

async function runOne(file: string): Promise<void> {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { run?: unknown };
  if (typeof mod.run !== "function") throw new Error(`${file} must export run(): Promise<void> | void`);
  await (mod.run as () => Promise<void> | void)();
}

async function main(): Promise<void> {
  if (only === ONE_FILE) return runOne(process.argv[3] ?? "");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.ts") && (!only || f.includes(only)))
    .sort();
  if (files.length === 0) throw new Error(`No bench/*.bench.ts file${only ? ` matching "${only}"` : ""} in ${dir}`);
  const crashed: string[] = [];
  for (const file of files) {
    console.log(`\n=== ${file} ===`);
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ONE_FILE, file], { stdio: "inherit" });
    if (child.status !== 0) crashed.push(`${file} (${child.status ?? child.signal})`);
  }
  if (crashed.length) throw new Error(`crashed: ${crashed.join(", ")}`);
}

// No top-level await: this package is not "type": "module", so tsx loads this file as CommonJS.
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
