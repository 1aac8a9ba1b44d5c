/**
 * The shipped `tandem` command (dist/cli.js) runs its bundle (cli-main.js) with the V8 code cache
 * the build made (cli-main.js.cache). These check the cache is there and that this Node takes
 * it, that a cache V8 refuses only costs the compile, and that the bundle holds no native
 * import() (which code run through node:vm cannot do on Node 20).
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CompiledCli } from "../../src/cli/launcher";
import { productionBundles } from "../support/bundles";

type Launcher = { compileCli(dir: string): CompiledCli };
const launcherIn = (dir: string): Launcher => createRequire(import.meta.url)(join(dir, "cli.js")) as Launcher;
const help = (dir: string) => spawnSync(process.execPath, [join(dir, "cli.js"), "--help"], { encoding: "utf8" });

let spare: string | undefined;
afterAll(async () => {
  if (spare) await rm(spare, { recursive: true, force: true });
});

describe("the CLI's code cache", () => {
  it("ships beside the bundle, and this Node accepts it", async () => {
    const bundle = productionBundles();
    expect((await readFile(join(bundle, "cli-main.js.cache"))).length).toBeGreaterThan(100_000);
    expect(launcherIn(bundle).compileCli(bundle).cacheRejected).toBe(false);
  });

  it("is only a lost speed-up when V8 refuses it, or when it is missing: the CLI works the same", async () => {
    const bundle = productionBundles();
    spare = await mkdtemp(join(tmpdir(), "tandem-code-cache-"));
    for (const file of ["cli.js", "cli-main.js"]) await copyFile(join(bundle, file), join(spare, file));
    const expected = help(bundle);
    expect(expected.status).toBe(0);

    const missing = help(spare);
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([0, expected.stdout, ""]);

    await writeFile(join(spare, "cli-main.js.cache"), Buffer.alloc(4096, 7));
    expect(launcherIn(spare).compileCli(spare).cacheRejected).toBe(true);
    const refused = help(spare);
    expect([refused.status, refused.stdout, refused.stderr]).toEqual([0, expected.stdout, ""]);
  });

  it("is not needed by any import() in the bundle: each became a require()", async () => {
    const text = await readFile(join(productionBundles(), "cli-main.js"), "utf8");
    // Only a dependency's import of a computed name stays (the sandbox library's Windows backend);
    // the SDKs' messages quote `import('node:buffer')`, in backticks.
    expect([...text.matchAll(/(?<![`\w$.])import\((["'`])[^"'`]*\1\)/g)].map((m) => m[0])).toEqual([]);
  });
});
