/**
 * Headless Debian Chromium driven by playwright-core. It is also what makes code-server start an
 * extension host: the host exists only while a workbench is connected.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import { CHROMIUM_BIN } from "./paths.mjs";
import { playwright } from "./tools.mjs";

/** @typedef {import("./run-dir.mjs").RunDir} RunDir */

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * @param {RunDir} dir
 * @returns {Promise<{ context: import("playwright-core").BrowserContext, page: import("playwright-core").Page,
 *                     logFile: string, close: () => Promise<void> }>}
 */
export async function launchBrowser(dir) {
  const context = await playwright().chromium.launchPersistentContext(dir.chromeProfile, {
    executablePath: CHROMIUM_BIN,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: CHROMIUM_ARGS,
    env: /** @type {Record<string, string>} */ (dir.chromiumEnv),
    // Our runners handle signals (closing code-server and the model server too); Playwright's
    // own handlers would exit the process before that teardown finishes.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const logFile = path.join(dir.logs, "browser.log");
  // Page errors are not failures by themselves (the workbench logs some), but they explain failures.
  const note = (text) => appendFileSync(logFile, `${new Date().toISOString()} ${text}\n`);
  page.on("pageerror", (error) => note(`[pageerror] ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") note(`[console.error] ${message.text()}`);
  });
  return { context, page, logFile, close: () => closeBrowser(context) };
}

/**
 * Leaves the workbench first: unloading makes VS Code terminate the extension host, while a bare
 * close leaves code-server keeping that host alive for a reconnection that never comes.
 * @param {import("playwright-core").BrowserContext} context
 */
async function closeBrowser(context) {
  try {
    for (const page of context.pages()) await page.goto("about:blank", { timeout: 10_000 });
  } finally {
    await context.close();
  }
}
