/**
 * Builds what `npm run package` ships (extension.js, core.js, cli.js with cli-main.js and its code cache, tree-sitter/, vendor/) once
 * per test run, for every test that drives the production bundles. TANDEM_TEST_BUNDLES names a
 * folder that already holds them (CI's build step), so a run builds nothing at all.
 */
import { chmodSync, existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as esbuild from "esbuild";
import type { TestProject } from "vitest/node";
import { bundleOptions, copySandboxVendor, copyTreeSitterWasm, writeCliCodeCache } from "../../esbuild-options.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder that holds the production bundles of this run. */
    productionBundles: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TANDEM_TEST_BUNDLES;
  if (given) {
    const folder = resolve(given);
    if (!existsSync(join(folder, "cli.js"))) throw new Error(`TANDEM_TEST_BUNDLES=${given} holds no cli.js: run npm run package first`);
    project.provide("productionBundles", folder);
    return async () => {};
  }
  const root = await mkdtemp(join(tmpdir(), "tandem-bundles-"));
  // Some tests run the CLI as an unprivileged user: the bundles must be readable by everyone.
  chmodSync(root, 0o755);
  const folder = join(root, "dist");
  await buildProductionBundles(folder);
  project.provide("productionBundles", folder);
  return () => rm(root, { recursive: true, force: true });
}

/** The production bundles, tree-sitter/ and the sandbox's vendor/ in `outdir`. */
export async function buildProductionBundles(outdir: string): Promise<void> {
  await esbuild.build({ ...bundleOptions({ outdir, production: true }), logLevel: "silent" });
  copyTreeSitterWasm(outdir);
  copySandboxVendor(outdir);
  writeCliCodeCache(outdir);
}
