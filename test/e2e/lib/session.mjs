/**
 * One end-to-end session: a fresh run folder, the scripted model server (when a script is
 * given), code-server with the Tandem .vsix installed, and a headless Chromium showing the
 * workbench on a fresh workspace folder. close() stops everything it started, in reverse order,
 * then makes sure no process of the run survived.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { launchBrowser } from "./browser.mjs";
import { Cleanup } from "./cleanup.mjs";
import { installExtension, startCodeServer } from "./code-server.mjs";
import { sampleMemory } from "./memory-sampler.mjs";
import { startModelServer } from "./model-server.mjs";
import { DEFAULT_VSIX, OUTPUT_DIR } from "./paths.mjs";
import { processesOfRun, stopLeftovers } from "./processes.mjs";
import { createRunDir } from "./run-dir.mjs";
import { tandemSettings, writeUserSettings } from "./settings.mjs";
import { enableDevelopmentPayload, openWorkbench, workbenchUrl } from "./workbench.mjs";

/**
 * @typedef {object} SessionOptions
 * @property {string} name  names the run folder
 * @property {string | null} [vsix]  the package to install; null installs nothing (development payload instead)
 * @property {unknown[]} [script]  model turns; when given, the scripted model server runs and Tandem points at it
 * @property {{ provider?: "anthropic" | "openai", modelId?: string, yolo?: boolean, extra?: Record<string, unknown> }} [tandem]
 * @property {Record<string, unknown>} [settings]  other user settings
 * @property {Record<string, string>} [files]  workspace files to create: relative path -> content
 * @property {Record<string, Record<string, string>>} [folders]  more workspace folders, by name, with their files: the
 *   session then opens a .code-workspace of the workspace folder (first) and these, each named after its folder
 * @property {Array<[string, string]>} [payload]  development options (name, absolute path) for the workbench URL
 * @property {(page: import("playwright-core").Page, dir: import("./run-dir.mjs").RunDir) => Promise<void>} [beforeOpen]  runs before navigating
 * @property {(modelUrl: string | undefined, dir: import("./run-dir.mjs").RunDir) => Record<string, string>} [extensionEnv]  more
 *   environment for code-server and so the extension host (e.g. a metadata server for Google's credentials)
 * @property {boolean} [restricted]  open the workspace untrusted, in VS Code's Restricted Mode (workspace trust on, never asked)
 */

/** Teardowns of the sessions not closed yet, for an interrupted run. */
const open = new Set();

/**
 * On Ctrl-C or SIGTERM, closes every session still open before exiting: our children live in
 * their own process groups, so the terminal's signal does not reach them.
 */
export function closeSessionsOnSignals() {
  let stopping = false;
  const onSignal = (signal) => {
    // A second Ctrl-C means "now": leave without waiting.
    if (stopping) process.exit(130);
    stopping = true;
    console.error(`${signal}: stopping what the e2e run started (Ctrl-C again to leave at once)`);
    void Promise.allSettled([...open].map((close) => close())).finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}

/** @param {SessionOptions} options */
export async function startSession(options) {
  const dir = createRunDir(options.name);
  const cleanup = new Cleanup();
  /** @type {Promise<void> | undefined} */
  let closing;
  // Idempotent: a signal handler and the failing scenario may both close; both wait for the same teardown.
  const close = () => {
    open.delete(close);
    return (closing ??= cleanup.run());
  };
  open.add(close);
  const memory = sampleMemory(dir.runId);
  const laps = new Laps();
  cleanup.add("run folder", () => (process.env.TANDEM_E2E_KEEP ? console.log(`kept ${dir.root}`) : dir.remove()));
  cleanup.add("leftover processes", () => killLeftovers(dir.runId));
  cleanup.add("memory sampler", () => memory.stop());
  try {
    return await build(options, { dir, cleanup, memory, laps, close });
  } catch (error) {
    const logs = saveLogs(dir, `${options.name}-start`);
    const teardown = await close().then(() => "", (e) => `; then ${e instanceof Error ? e.message : e}`);
    throw new Error(`${error instanceof Error ? error.message : error} (logs: ${logs})${teardown}`, { cause: error });
  }
}

/** Seconds since the session started, per step, to see where the time goes. */
class Laps {
  #start = Date.now();
  /** @type {string[]} */
  entries = [];
  /** @param {string} label */
  mark(label) {
    this.entries.push(`${label} ${((Date.now() - this.#start) / 1000).toFixed(1)} s`);
  }
}

/**
 * @param {SessionOptions} options
 * @param {{ dir: import("./run-dir.mjs").RunDir, cleanup: Cleanup, memory: ReturnType<typeof sampleMemory>, laps: Laps,
 *           close: () => Promise<void> }} parts
 */
async function build(options, { dir, cleanup, memory, laps, close }) {
  writeWorkspaceFiles(dir.workspace, options.files ?? {});
  const folders = writeMoreFolders(dir, options.folders ?? {});
  const vsix = options.vsix === undefined ? DEFAULT_VSIX : options.vsix;
  if (vsix !== null && !existsSync(vsix)) throw new Error(`${vsix} does not exist; build it with: npm run package`);

  // The slow steps that do not depend on each other run side by side. Each registers its own
  // teardown as soon as it is up, and all settle before a failure is thrown, so nothing that
  // started late escapes the cleanup.
  const [{ model, codeServer }, browser] = await settleAll([
    (async () => {
      const [model] = await settleAll([
        options.script ? startModelServer(dir, options.script).then((m) => owned(m, "scripted model server", "model server")) : undefined,
        vsix === null ? undefined : installExtension(dir, vsix).then(() => laps.mark("vsix installed")),
      ]);
      const provider = options.tandem?.provider ?? "anthropic";
      const trust = options.restricted ? { "security.workspace.trust.enabled": true } : {};
      writeUserSettings(dir.userSettings, { ...tandemSettings({ ...options.tandem, baseUrl: model?.baseUrlFor(provider) }), ...trust, ...options.settings });
      if (options.extensionEnv) Object.assign(dir.codeServerEnv, options.extensionEnv(model?.url, dir));
      const codeServer = owned(await startCodeServer(dir, { workspaceTrust: options.restricted === true }), "code-server", "code-server up");
      return { model, codeServer };
    })(),
    launchBrowser(dir).then((b) => owned(b, "browser", "browser up")),
  ]);

  if (options.payload) await enableDevelopmentPayload(browser.page);
  await options.beforeOpen?.(browser.page, dir);
  const opened = Object.keys(folders).length === 0 ? dir.workspace : writeWorkspaceFile(dir, folders);
  await openWorkbench(browser.page, workbenchUrl(codeServer.url, opened, options.payload));
  laps.mark("workbench loaded");

  /**
   * Registers the teardown of something that just started.
   * @template {{ stop?: () => Promise<void>, close?: () => Promise<void> }} T
   * @param {T} thing
   * @returns {T}
   */
  function owned(thing, label, lap) {
    const stop = thing.stop ?? thing.close;
    if (stop) cleanup.add(label, stop);
    laps.mark(lap);
    return thing;
  }

  return {
    dir,
    page: browser.page,
    codeServer,
    model,
    workspace: dir.workspace,
    /** The more workspace folders (options.folders), by name: absolute paths. */
    folders,
    get peakMemoryKiB() {
      return memory.peakKiB;
    },
    /** Records how long the session took to reach a step (shown in the runner's report). */
    lap: (/** @type {string} */ label) => laps.mark(label),
    get laps() {
      return laps.entries;
    },
    /** Copies the run's logs (ours and VS Code's) to test/e2e/.output/<label>-logs and returns that path. */
    saveLogs: (/** @type {string} */ label) => saveLogs(dir, label),
    close,
  };
}

/**
 * Like Promise.all, but waits for every promise to settle before throwing the first failure.
 * @template {readonly unknown[]} T
 * @param {T} promises
 * @returns {Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }>}
 */
async function settleAll(promises) {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return /** @type {any} */ (results.map((r) => /** @type {PromiseFulfilledResult<unknown>} */ (r).value));
}

function saveLogs(dir, label) {
  const target = path.join(OUTPUT_DIR, `${label}-logs`);
  rmSync(target, { recursive: true, force: true });
  cpSync(dir.logs, target, { recursive: true });
  // VS Code's own logs: the extension host's output, the remote server, the renderer.
  const vscodeLogs = path.join(dir.userData, "logs");
  if (existsSync(vscodeLogs)) cpSync(vscodeLogs, path.join(target, "vscode"), { recursive: true });
  return target;
}

function writeWorkspaceFiles(root, files) {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.resolve(root, relative);
    if (!file.startsWith(root + path.sep)) throw new Error(`workspace file ${relative} is outside the workspace`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Each more folder under the run's `folders/`, named as asked (VS Code names a folder after its last segment). */
function writeMoreFolders(dir, folders) {
  /** @type {Record<string, string>} */
  const paths = {};
  for (const [name, files] of Object.entries(folders)) {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`workspace folder name ${name} is not one plain segment`);
    const folder = path.join(dir.root, "folders", name);
    mkdirSync(folder, { recursive: true });
    writeWorkspaceFiles(folder, files);
    paths[name] = folder;
  }
  return paths;
}

/** A .code-workspace of the workspace folder, then the more folders; returns its path (the workbench opens it). */
function writeWorkspaceFile(dir, folders) {
  const file = path.join(dir.root, "tandem.code-workspace");
  writeFileSync(file, `${JSON.stringify({ folders: [dir.workspace, ...Object.values(folders)].map((folder) => ({ path: folder })) }, null, 2)}\n`);
  return file;
}

/** Anything of the run still alive after teardown is a leak: stop it, and fail loudly. */
async function killLeftovers(runId) {
  const leftovers = await processesOfRun(runId);
  if (leftovers.length === 0) return;
  await stopLeftovers(leftovers);
  throw new Error(`processes outlived teardown and were killed: ${leftovers.map((p) => p.pid).join(", ")}`);
}
