/**
 * code-server (VS Code 1.100.3 in the browser) with fresh user-data and extensions folders.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { CODE_SERVER_BIN } from "./paths.mjs";
import { startAndWaitFor, stopProcessGroup } from "./processes.mjs";

const run = promisify(execFile);

/** @typedef {import("./run-dir.mjs").RunDir} RunDir */

function folderArgs(dir) {
  return ["--user-data-dir", dir.userData, "--extensions-dir", dir.extensions];
}

/** Installs a .vsix into the run's extensions folder (the same step a person takes). */
export async function installExtension(dir, vsix) {
  try {
    const { stdout } = await run(CODE_SERVER_BIN, [...folderArgs(dir), "--install-extension", vsix], {
      env: dir.codeServerEnv,
      timeout: 60_000,
    });
    if (!/successfully installed/i.test(stdout)) throw new Error(stdout.trim() || "no output");
  } catch (error) {
    const err = /** @type {Error & { stdout?: string, stderr?: string }} */ (error);
    throw new Error(`code-server could not install ${vsix}: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`.trim());
  }
}

/**
 * Starts code-server on 127.0.0.1 (a free port it picks itself) and waits for /healthz.
 * The caller owns the returned server and must call stop().
 * @param {RunDir} dir
 */
export async function startCodeServer(dir) {
  const logFile = path.join(dir.logs, "code-server.log");
  const { proc, match } = await startAndWaitFor(
    {
      name: "code-server",
      command: CODE_SERVER_BIN,
      args: [
        "--bind-addr", "127.0.0.1:0",
        "--auth", "none",
        ...folderArgs(dir),
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        "--ignore-last-opened",
      ],
      env: dir.codeServerEnv,
      cwd: dir.root,
      logFile,
    },
    /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/,
    30_000,
  );
  const url = /** @type {string} */ (match[1]);
  const server = { url, pid: proc.pid, logFile, stop: () => stopProcessGroup(proc.pid) };
  try {
    await waitForHealth(url, proc, 30_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitForHealth(url, proc, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (!proc.running()) throw new Error(`code-server exited before /healthz answered`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = /** @type {Error} */ (error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`code-server at ${url} did not answer /healthz within ${timeoutMs} ms (${last})`);
}
