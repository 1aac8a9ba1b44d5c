/**
 * code-server (VS Code 1.100.3 in the browser) with fresh user-data and extensions folders.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { CODE_SERVER_BIN } from "./paths.mjs";
import { startAndWaitFor, stopProcessGroup } from "./processes.mjs";

const run = promisify(execFile);

/** @typedef {import("./run-dir.mjs").RunDir} RunDir */

function folderArgs(dir) {
  return ["--user-data-dir", dir.userData, "--extensions-dir", dir.extensions];
}

/**
 * Installs a .vsix into the run's extensions folder. code-server installs it (the same step a
 * person takes) once per runner process and package, into a folder of its own; each session then
 * gets a copy of what it installed, with the folder's own path written into its manifest. The
 * installer is a whole code-server start (about 2.5 s of CPU), which every scenario paid before.
 * @param {RunDir} dir
 * @param {string} vsix
 */
export async function installExtension(dir, vsix) {
  const { mtimeMs, size } = statSync(vsix);
  const key = `${vsix}:${mtimeMs}:${size}`;
  let installed = installedCopies.get(key);
  if (!installed) {
    installed = installOnce(dir, vsix);
    installedCopies.set(key, installed);
    // A failed install is not kept: the next session tries again (and reports its own failure).
    installed.catch(() => installedCopies.delete(key));
  }
  const source = await installed;
  const manifest = path.join(dir.extensions, "extensions.json");
  // A second package (a scenario's helper extension) brings a manifest of its own: the copy would
  // replace the first one's, and code-server would mark the extension it no longer lists as removed.
  const before = readManifest(manifest);
  await cp(source, dir.extensions, { recursive: true });
  const added = readManifest(manifest).map((entry) => JSON.parse(JSON.stringify(entry).replaceAll(source, dir.extensions)));
  const ids = new Set(added.map((entry) => entry.identifier?.id));
  writeFileSync(manifest, JSON.stringify([...before.filter((entry) => !ids.has(entry.identifier?.id)), ...added]));
}

/** The entries of an extensions folder's extensions.json (none when there is no such file yet). */
function readManifest(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
}

/** key (the package, as it is on disk) → the folder code-server installed it into, for this process. */
const installedCopies = new Map();

/** @param {RunDir} dir */
async function installOnce(dir, vsix) {
  const target = mkdtempSync(path.join(tmpdir(), "tandem-e2e-installed-"));
  process.once("exit", () => rmSync(target, { recursive: true, force: true }));
  try {
    const { stdout } = await run(CODE_SERVER_BIN, ["--user-data-dir", dir.userData, "--extensions-dir", target, "--install-extension", vsix], {
      env: dir.codeServerEnv,
      timeout: 60_000,
    });
    if (!/successfully installed/i.test(stdout)) throw new Error(stdout.trim() || "no output");
    return target;
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
export async function startCodeServer(dir, { workspaceTrust = false } = {}) {
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
        // Workspace trust stays off (every folder trusted) unless a scenario tests Restricted Mode.
        ...(workspaceTrust ? [] : ["--disable-workspace-trust"]),
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
