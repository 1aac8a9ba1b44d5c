/**
 * server-everything, the MCP server the e2e scenarios configure: its settings entry (marked with
 * the run, so the harness and the scenarios can find its processes) and those processes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { RUN_MARKER_VAR } from "./processes.mjs";
import { waitUntil } from "./wait.mjs";

const require = createRequire(import.meta.url);
export const EVERYTHING = path.join(path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");

/**
 * The server's entry for an MCP settings file (`mcpServers.everything`), over stdio, for run `runId`.
 * @param {string} runId
 * @param {Record<string, unknown>} [extra]  more fields, e.g. autoApprove
 */
export function everythingServer(runId, extra = {}) {
  return { command: process.execPath, args: [EVERYTHING, "stdio"], env: { [RUN_MARKER_VAR]: runId }, ...extra };
}

/** The pids of server-everything processes started for run `runId` (the marker is in their environment). */
export function everythingPids(runId) {
  return readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(EVERYTHING) && readFileSync(`/proc/${pid}/environ`, "utf8").includes(`${RUN_MARKER_VAR}=${runId}`);
    } catch {
      return false;
    }
  });
}

/**
 * Waits for the run's server processes to end (after Disable): one left running dies about 1.7 s
 * after VS Code, too late for the harness's leftover check.
 * @param {string} runId
 */
export function waitForEverythingToStop(runId, what = "Disable stops the server's process") {
  return waitUntil(() => everythingPids(runId).length === 0, what);
}
