#!/usr/bin/env node
/**
 * `npm start`: Tandem in a real VS Code in the browser, for real use (no scripted model here).
 *
 *   npm start                 # builds and packages first (see package.json), then runs this
 *   PORT=9000 npm start       # another port (default 8080)
 *
 * Runs code-server (the harness's install, test/e2e/.tools; setup.sh installs it when missing)
 * on 127.0.0.1 without a password, with the freshly packaged dist/tandem.vsix installed into
 * its own extensions folder, on a playground folder that persists between runs:
 *
 *   test/e2e/.playground/workspace/     the folder VS Code opens (a README says how to begin)
 *   test/e2e/.playground/code-server/   VS Code's user data, extensions, XDG folders, log
 *
 * The playground ignores itself in git (its own .gitignore). Stays in the foreground until
 * Ctrl-C (or SIGTERM), then stops code-server and everything it started.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CODE_SERVER_BIN, DEFAULT_VSIX, E2E_DIR, REPO_ROOT } from "./lib/paths.mjs";
import { logTail, startProcess, stopProcessGroup } from "./lib/processes.mjs";
import { workbenchUrl } from "./lib/workbench.mjs";

const DEFAULT_PORT = 8080;
const PLAYGROUND = path.join(E2E_DIR, ".playground");
const WORKSPACE = path.join(PLAYGROUND, "workspace");
const VSCODE_HOME = path.join(PLAYGROUND, "code-server");
const USER_DATA = path.join(VSCODE_HOME, "user-data");
const EXTENSIONS = path.join(VSCODE_HOME, "extensions");
const LOG_FILE = path.join(VSCODE_HOME, "code-server.log");

/** Written once; after that the settings are the person's (the panel writes tandem.* there too). */
const FIRST_SETTINGS = {
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.commandCenter.enabled": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  // The playground sits inside Tandem's repository; it is a repository of its own.
  "git.openRepositoryInParentFolders": "never",
};

const README = `# Tandem playground

This folder is Tandem's workspace when you run \`npm start\` in the Tandem repository. Tandem may
read, create and change files here; it asks you first unless you turn auto-approval or YOLO on.

1. Click the Tandem icon (a tandem bicycle) in the activity bar on the left.
2. Open Tandem's settings: the gear in the Chat view's title bar, or F1 → "Tandem: Open Settings".
   - Anthropic or OpenAI: pick the provider, paste your key into "API key" and press "Save key".
     The key goes to VS Code's secret storage, never into settings.json.
   - A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp): pick
     "OpenAI (or a compatible server)", set the Base URL (Ollama: http://127.0.0.1:11434/v1)
     and the model id (e.g. qwen2.5-coder:7b). No key is needed.
3. Press Done, type a task (e.g. "Write a hello.py that prints the date") and press Enter.

Everything here stays between runs. Delete test/e2e/.playground to start over.
`;

main().catch((error) => {
  console.error(`tandem start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

async function main() {
  const port = parsePort(process.env.PORT);
  ensureCodeServer();
  if (!existsSync(DEFAULT_VSIX)) throw new Error(`${DEFAULT_VSIX} does not exist; build it with: npm run package (npm start does this first)`);
  const env = preparePlayground();

  console.log(`Installing ${path.relative(REPO_ROOT, DEFAULT_VSIX)} into the playground's VS Code…`);
  const install = spawnSync(CODE_SERVER_BIN, [...folderArgs(), "--install-extension", DEFAULT_VSIX, "--force"], { env, encoding: "utf8" });
  if (install.status !== 0 || !/successfully installed/i.test(install.stdout)) {
    throw new Error(`code-server could not install the extension (exit ${install.status}):\n${install.stdout}${install.stderr}`.trim());
  }

  const stop = stopOnSignals();
  /** @type {() => void} */
  let markListening = () => {};
  const listening = new Promise((resolve) => (markListening = () => resolve(undefined)));
  const proc = await startProcess({
    name: "code-server",
    command: CODE_SERVER_BIN,
    args: [
      "--bind-addr", `127.0.0.1:${port}`,
      "--auth", "none",
      ...folderArgs(),
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
    ],
    env,
    cwd: PLAYGROUND,
    logFile: LOG_FILE,
    onLine: (line) => {
      if (/HTTP server listening on/.test(line)) markListening();
    },
  });
  stop.owns(proc.pid);
  const early = await Promise.race([listening.then(() => undefined), proc.exited.then((code) => String(code))]);
  if (early !== undefined) {
    throw new Error(`code-server exited (${early}) before it listened (is port ${port} taken? try PORT=…); the end of its log:\n${await logTail(LOG_FILE)}`);
  }
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, proc);
  printWelcome(workbenchUrl(base, WORKSPACE));

  const code = await proc.exited;
  if (stop.stopping) return; // Ctrl-C: the signal handler finishes and exits
  console.error(`code-server stopped by itself (${code}); its log: ${LOG_FILE}`);
  process.exit(1);
}

function parsePort(value) {
  if (value === undefined || value === "") return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`PORT must be a whole number from 1 to 65535, got "${value}"`);
  return port;
}

/** The harness's code-server, installed by setup.sh on first use. */
function ensureCodeServer() {
  if (existsSync(CODE_SERVER_BIN)) return;
  console.log("code-server is not installed yet: running test/e2e/setup.sh (about a minute)…");
  const setup = spawnSync("bash", [path.join(E2E_DIR, "setup.sh")], { stdio: "inherit" });
  if (setup.status !== 0 || !existsSync(CODE_SERVER_BIN)) throw new Error(`test/e2e/setup.sh failed (exit ${setup.status}); see its output above`);
}

function folderArgs() {
  return ["--user-data-dir", USER_DATA, "--extensions-dir", EXTENSIONS];
}

/** Creates the playground on first use and returns code-server's environment (its XDG folders inside it). */
function preparePlayground() {
  const fresh = !existsSync(WORKSPACE);
  for (const dir of [WORKSPACE, path.join(USER_DATA, "User"), EXTENSIONS]) mkdirSync(dir, { recursive: true });
  writeOnce(path.join(PLAYGROUND, ".gitignore"), "# Tandem's npm start playground: local state, never committed.\n*\n");
  writeOnce(path.join(WORKSPACE, "README.md"), README);
  // Its own repository, so git commands the agent runs (and its checkpoints) never reach Tandem's.
  if (fresh) initRepository(WORKSPACE);
  writeOnce(path.join(USER_DATA, "User", "settings.json"), `${JSON.stringify(FIRST_SETTINGS, null, 2)}\n`);
  const xdg = (name) => {
    const dir = path.join(VSCODE_HOME, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  };
  return {
    ...process.env,
    XDG_CONFIG_HOME: xdg("xdg-config"),
    XDG_DATA_HOME: xdg("xdg-data"),
    XDG_CACHE_HOME: xdg("xdg-cache"),
  };
}

function initRepository(dir) {
  const git = spawnSync("git", ["init", "--quiet"], { cwd: dir, encoding: "utf8" });
  if (git.status !== 0) {
    console.warn(`warning: could not make ${dir} a git repository (${git.error?.message ?? git.stderr.trim()}); git commands there will reach the Tandem repository around it`);
  }
}

function writeOnce(file, content) {
  if (!existsSync(file)) writeFileSync(file, content);
}

async function waitForHealth(base, proc, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (!proc.running()) throw new Error(`code-server exited before it was ready; its log: ${LOG_FILE}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stopProcessGroup(proc.pid);
  throw new Error(`code-server did not answer ${base}/healthz within ${timeoutMs / 1000} s (${last}); its log: ${LOG_FILE}`);
}

/**
 * Ctrl-C or SIGTERM stops code-server: it runs in its own process group, so the terminal's
 * signal does not reach it. Installed before it starts; owns() says which group to stop.
 */
function stopOnSignals() {
  /** @type {number | undefined} */
  let pid;
  let stopping = false;
  const onSignal = (signal) => {
    if (stopping) process.exit(130); // a second Ctrl-C: leave at once
    stopping = true;
    console.log(`\n${signal}: stopping code-server…`);
    (pid === undefined ? Promise.resolve() : stopProcessGroup(pid)).then(
      () => process.exit(0),
      (error) => {
        console.error(`could not stop code-server: ${error instanceof Error ? error.message : error}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    owns: (/** @type {number} */ owned) => void (pid = owned),
    get stopping() {
      return stopping;
    },
  };
}

function printWelcome(url) {
  console.log(`
Tandem is running in VS Code at:

    ${url}

Open that address in a browser on this machine (code-server listens on 127.0.0.1 only, without a
password; from another machine use an SSH tunnel, e.g. ssh -L 8080:127.0.0.1:8080 this-host).

Then:
  1. Click the Tandem icon (a tandem bicycle) in the activity bar.
  2. Set up a model with "Tandem: Open Settings" (the gear in the Chat view's title bar, or F1):
       - Anthropic / OpenAI: choose the provider, paste the API key, press "Save key"
         (kept in VS Code's secret storage, not in settings);
       - a local OpenAI-compatible server such as Ollama: choose "OpenAI (or a compatible server)",
         Base URL http://127.0.0.1:11434/v1 and a model id such as qwen2.5-coder:7b (no key needed).
  3. Type a task and press Enter.

Workspace: ${WORKSPACE}
VS Code's data and log: ${VSCODE_HOME}
Press Ctrl-C to stop.`);
}
