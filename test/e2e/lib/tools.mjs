/**
 * Loads packages from the test-tools folder (test/e2e/.tools), which is not part of the
 * extension's own dependencies.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { CODE_SERVER_BIN, CHROMIUM_BIN, TOOLS_DIR } from "./paths.mjs";

const requireFromTools = createRequire(path.join(TOOLS_DIR, "package.json"));

/** Throws a message that says how to fix it when setup.sh has not been run. */
export function assertToolsInstalled() {
  const missing = [CODE_SERVER_BIN, CHROMIUM_BIN, path.join(TOOLS_DIR, "node_modules/playwright-core")].filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new Error(`e2e tools are missing (${missing.join(", ")}); run: bash test/e2e/setup.sh`);
  }
}

/** @returns {typeof import("playwright-core")} */
export function playwright() {
  assertToolsInstalled();
  return requireFromTools("playwright-core");
}
