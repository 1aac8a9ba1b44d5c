/**
 * The production bundles of this test run, built once by bundles.global-setup.ts. Tests read
 * them in place; a test that breaks a bundle on purpose takes its own copy.
 */
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { inject } from "vitest";

/** The folder with extension.js, core.js, cli.js, tree-sitter/ and vendor/ (read-only: share it). */
export function productionBundles(): string {
  return inject("productionBundles");
}

/** The shipped CLI bundle. */
export function productionCli(): string {
  return join(productionBundles(), "cli.js");
}

/** A copy of the bundles in `outdir`, for a test that removes or changes a shipped file. */
export async function copyOfBundles(outdir: string): Promise<string> {
  await cp(productionBundles(), outdir, { recursive: true });
  return outdir;
}
