/**
 * Where the e2e harness finds things. Everything is resolved from this file, so the harness
 * works from any working directory.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = path.resolve(E2E_DIR, "../..");
/** The test-tools package (code-server, playwright-core, @axe-core/playwright, mocha) installed by setup.sh. */
export const TOOLS_DIR = path.join(E2E_DIR, ".tools");
export const CODE_SERVER_BIN = path.join(TOOLS_DIR, "node_modules/.bin/code-server");
/** Debian's Chromium; playwright-core never downloads a browser. */
export const CHROMIUM_BIN = "/usr/bin/chromium";
/** Screenshots and logs of the last run (git-ignored). */
export const OUTPUT_DIR = path.join(E2E_DIR, ".output");
/** What `npm run package` builds. */
export const DEFAULT_VSIX = path.join(REPO_ROOT, "dist/tandem.vsix");
export const MODEL_SERVER_ENTRY = path.join(REPO_ROOT, "test/support/serve.ts");

/** publisher.name from package.json. */
export const EXTENSION_ID = "tandem.tandem";
/** The activity-bar view container's title. */
export const VIEW_CONTAINER_TITLE = "Tandem";
