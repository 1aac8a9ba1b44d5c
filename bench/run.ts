/**
 * `npm run bench`: imports every bench/*.bench.ts and awaits its exported `run()`, one after another.
 * A benchmark reports its own PASS/MISS lines; only a crash makes this exit non-zero.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as path from "node:path";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2]; // optional: a substring of the bench file names to run

async function main(): Promise<void> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.ts") && (!only || f.includes(only)))
    .sort();
  if (files.length === 0) throw new Error(`No bench/*.bench.ts file${only ? ` matching "${only}"` : ""} in ${dir}`);
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { run?: unknown };
    if (typeof mod.run !== "function") throw new Error(`${file} must export run(): Promise<void> | void`);
    console.log(`\n=== ${file} ===`);
    await (mod.run as () => Promise<void> | void)();
  }
}

// No top-level await: this package is not "type": "module", so tsx loads this file as CommonJS.
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
