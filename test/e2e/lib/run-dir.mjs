/**
 * One temporary directory per e2e session. Every file code-server, Chromium and the model
 * server write lands here (their HOME-like XDG folders and TMPDIR point into it), so a run never
 * touches the developer's home folder and never sees state from an earlier run.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { RUN_MARKER_VAR } from "./processes.mjs";

/**
 * @typedef {ReturnType<typeof createRunDir>} RunDir
 */

/** @param {string} label  a short name for the folder (the scenario's name) */
export function createRunDir(label) {
  // Short paths: Unix socket paths (VS Code's IPC, Chromium's singleton) are limited to 107 bytes,
  // and VS Code names its IPC sockets with a 52-character name in XDG_RUNTIME_DIR.
  const safe = label.replace(/[^a-z0-9-]+/gi, "-").slice(0, 20);
  const root = mkdtempSync(path.join(os.tmpdir(), `tandem-e2e-${safe}-`));
  const dir = (...parts) => {
    const full = path.join(root, ...parts);
    mkdirSync(full, { recursive: true });
    return full;
  };
  const runId = randomUUID();
  const codeServerHome = dir("code-server");
  const paths = {
    root,
    runId,
    logs: dir("logs"),
    workspace: dir("workspace"),
    userData: dir("code-server/user-data"),
    userSettings: path.join(dir("code-server/user-data/User"), "settings.json"),
    extensions: dir("code-server/extensions"),
    chromeProfile: dir("chromium/profile"),
  };
  return {
    ...paths,
    /** Environment for code-server and its children. */
    codeServerEnv: isolatedEnv(runId, codeServerHome, dir("rt-cs")),
    /** Environment for Chromium: it writes crash reports, dconf and its singleton socket outside --user-data-dir. */
    chromiumEnv: isolatedEnv(runId, dir("chromium"), dir("rt-cr")),
    /** Environment for helper processes (the model server). */
    helperEnv: { ...process.env, [RUN_MARKER_VAR]: runId, TMPDIR: dir("tmp") },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The process environment with its XDG folders and TMPDIR inside `home`; `runtime` is kept short for sockets. */
function isolatedEnv(runId, home, runtime) {
  const sub = (name) => {
    const full = path.join(home, name);
    mkdirSync(full, { recursive: true, mode: 0o700 });
    return full;
  };
  return {
    ...process.env,
    [RUN_MARKER_VAR]: runId,
    XDG_CONFIG_HOME: sub("xdg-config"),
    XDG_DATA_HOME: sub("xdg-data"),
    XDG_CACHE_HOME: sub("xdg-cache"),
    XDG_RUNTIME_DIR: runtime,
    TMPDIR: sub("tmp"),
  };
}
