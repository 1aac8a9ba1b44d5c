/**
 * The project's scripted model server (test/support/serve.ts) as a child process, so the
 * extension in code-server talks to it over real HTTP exactly as it would to a provider.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { MODEL_SERVER_ENTRY, REPO_ROOT } from "./paths.mjs";
import { startAndWaitFor, stopProcessGroup } from "./processes.mjs";

/** @typedef {import("./run-dir.mjs").RunDir} RunDir */

/**
 * @param {RunDir} dir
 * @param {unknown[]} turns  the script (see test/support/script.ts); more can be appended later
 */
export async function startModelServer(dir, turns = []) {
  const scriptFile = path.join(dir.root, "model-script.json");
  writeFileSync(scriptFile, JSON.stringify(turns, null, 2));
  const logFile = path.join(dir.logs, "model-server.log");
  const { proc, match } = await startAndWaitFor(
    {
      name: "scripted model server",
      command: process.execPath,
      args: ["--import", "tsx", MODEL_SERVER_ENTRY, "--port", "0", "--script", scriptFile],
      env: dir.helperEnv,
      cwd: REPO_ROOT,
      logFile,
    },
    /listening on (http:\/\/\S+)/,
    20_000,
  );
  const url = /** @type {string} */ (match[1]);
  return {
    url,
    /** What `tandem.baseUrl` should be for each provider. */
    baseUrlFor: (/** @type {"anthropic" | "openai"} */ provider) => (provider === "openai" ? `${url}/v1` : url),
    pid: proc.pid,
    logFile,
    /** Appends turns to the script. */
    appendScript: (/** @type {unknown[]} */ more) => control(url, "POST", "/__script", more),
    /** What the model-list routes (Ollama's, LM Studio's, OpenRouter's) answer from now on. */
    setListedModels: (/** @type {unknown[]} */ models) => control(url, "POST", "/__models", models),
    /** Drops the turns not served yet. */
    dropScript: () => control(url, "DELETE", "/__script"),
    /** Every model request received so far (protocol, path, headers, body, turnIndex). */
    requests: () => control(url, "GET", "/__requests"),
    stop: () => stopProcessGroup(proc.pid),
  };
}

async function control(url, method, route, body) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`model server ${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}
