/**
 * Runs mocha suites inside code-server's real extension host. The workbench is opened with the
 * development options extensionDevelopmentPath (the repository, so its built dist/extension.js
 * is loaded as in F5) and extensionTestsPath (a module exporting run()). The workbench reports
 * the host's console output through window.codeAutomationLog and the result through
 * window.codeAutomationExit; we expose both before the page loads.
 */
import { appendFileSync, existsSync } from "node:fs";
import path from "node:path";
import util from "node:util";
import { E2E_DIR, REPO_ROOT } from "./paths.mjs";

export const HOST_SUITES = path.join(E2E_DIR, "host/index.cjs");
export const HOST_FAILING_SUITES = path.join(E2E_DIR, "host/failing/index.cjs");

/**
 * @param {(options: Omit<import("./session.mjs").SessionOptions, "name">) => Promise<import("./harness.mjs").Session>} startSession
 * @param {{ testsEntry: string, devPath?: string, timeoutMs?: number, print?: (line: string) => void }} options
 * @returns {Promise<{ exitCode: number, output: string[] }>}
 */
export async function runHostTests(startSession, { testsEntry, devPath = REPO_ROOT, timeoutMs = 120_000, print = console.log }) {
  const main = path.join(devPath, "dist/extension.js");
  if (!existsSync(main)) throw new Error(`${main} does not exist; build the extension first: npm run build`);
  if (!existsSync(testsEntry)) throw new Error(`${testsEntry} does not exist`);

  const output = [];
  let logs = "";
  /** @type {(code: number) => void} */
  let finish = () => {};
  const exited = new Promise((resolve) => (finish = resolve));
  const session = await startSession({
    vsix: null,
    payload: [
      ["extensionDevelopmentPath", devPath],
      ["extensionTestsPath", testsEntry],
    ],
    beforeOpen: async (page, dir) => {
      logs = dir.logs;
      const logFile = path.join(logs, "host-output.log");
      await page.exposeFunction("codeAutomationLog", (type, args) => {
        // The first argument is often a printf-style format (mocha's spec reporter).
        const line = util.format(...(Array.isArray(args) ? args : [args]));
        output.push(line);
        appendFileSync(logFile, `${line}\n`);
        if (!isWorkbenchChatter(line)) print(line);
      });
      await page.exposeFunction("codeAutomationExit", (code) => finish(Number(code)));
    },
  });
  let timer;
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the in-host tests did not finish within ${timeoutMs / 1000} s (logs: ${session.saveLogs("host-timeout")})`)),
      timeoutMs,
    );
  });
  try {
    const exitCode = await Promise.race([exited, timedOut]);
    session.lap("in-host tests done");
    return { exitCode, output };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The workbench's own console lines, which come through the same channel as the host's output;
 * they stay in logs/host-output.log but would bury mocha's report on the console.
 */
const CHATTER = [
  /^\s+at /,
  /connection token|Creating a socket|Service Worker|builtin extensions cache|ChatSessionStore/,
  /open-vsx\.org|^\[lifecycle\]|Creation of workbench contribution/,
];

function isWorkbenchChatter(line) {
  return CHATTER.some((pattern) => pattern.test(line));
}

/**
 * Fails unless the in-host suites passed; the message carries mocha's own count of failures.
 * @param {{ exitCode: number, output: string[] }} outcome
 */
export function assertHostTestsPassed({ exitCode, output }) {
  if (exitCode === 0) return;
  const failing = output.find((line) => /^\s*\d+ failing\b/.test(line))?.trim() ?? "no failing test reported";
  throw new Error(`in-host mocha suites failed: exit code ${exitCode}, ${failing}`);
}
