/**
 * Child processes owned by one e2e run. Each starts in its own session (detached), so its pid
 * is also its process-group id and stopping it reaches every descendant (code-server's
 * extension host, pty host, shells). Each also carries a run marker in its environment, so
 * teardown can find anything that escaped its group.
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { once } from "node:events";

export const RUN_MARKER_VAR = "TANDEM_E2E_RUN";

/**
 * @typedef {object} OwnedProcess
 * @property {string} name
 * @property {number} pid  also the process-group id
 * @property {Promise<number | string>} exited  the exit code, or the signal that ended it
 * @property {() => boolean} running
 */

/**
 * Starts a process in its own process group with stdout and stderr appended to `logFile`.
 * `onLine` sees each line of output (to learn a URL the process prints).
 * @param {{ name: string, command: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string,
 *           logFile: string, onLine?: (line: string) => void }} options
 * @returns {Promise<OwnedProcess>}
 */
export async function startProcess({ name, command, args, env, cwd, logFile, onLine }) {
  const log = createWriteStream(logFile, { flags: "a" });
  await once(log, "open");
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) => reject(new Error(`cannot start ${name} (${command}): ${error.message}`)));
  });
  let ended = false;
  const exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      ended = true;
      resolve(code ?? signal ?? "unknown");
    });
  });
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream.on("data", (chunk) => {
      log.write(chunk);
      if (!onLine) return;
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    });
  }
  void exited.then(() => log.end());
  // Our own exit must not wait for these pipes.
  child.unref();
  return { name, pid: /** @type {number} */ (child.pid), exited, running: () => !ended };
}

/** Pids of every live process whose process group is `pgid`. */
export async function processGroupMembers(pgid) {
  const members = [];
  for (const pid of await listPids()) {
    const stat = await readStat(pid);
    if (stat?.alive && stat.pgid === pgid) members.push(pid);
  }
  return members;
}

/** Pids of the live members of process group `pgid` whose command line matches `pattern`. */
export async function processGroupMembersMatching(pgid, pattern) {
  const matching = [];
  for (const pid of await processGroupMembers(pgid)) {
    const cmdline = (await readProc(pid, "cmdline"))?.replaceAll("\0", " ");
    if (cmdline !== undefined && pattern.test(cmdline)) matching.push(pid);
  }
  return matching;
}

/**
 * Stops a whole process group: SIGTERM, then SIGKILL for what is left after `graceMs`.
 * Resolves once no member is alive; throws if some survive SIGKILL.
 */
export async function stopProcessGroup(pgid, graceMs = 5_000) {
  if (!signalGroup(pgid, "SIGTERM")) return;
  if (await waitUntilGone(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  if (!(await waitUntilGone(pgid, 2_000))) {
    throw new Error(`process group ${pgid} survived SIGKILL: ${(await processGroupMembers(pgid)).join(", ")}`);
  }
}

/**
 * Live processes of a run: those started with `RUN_MARKER_VAR=<runId>` in their environment,
 * and every member of their process groups (Chromium overwrites its children's environment
 * area with their titles, so the marker alone misses its renderers). Our own group is never
 * included.
 * @returns {Promise<Array<{ pid: number, pgid: number }>>}
 */
export async function processesOfRun(runId) {
  const needle = `\0${RUN_MARKER_VAR}=${runId}\0`;
  const own = (await readStat(process.pid))?.pgid;
  const live = [];
  const groups = new Set();
  for (const pid of await listPids()) {
    const stat = await readStat(pid);
    if (!stat?.alive || stat.pgid === own) continue;
    live.push({ pid, pgid: stat.pgid });
    const environ = await readProc(pid, "environ");
    if (environ !== undefined && `\0${environ}`.includes(needle)) groups.add(stat.pgid);
  }
  return live.filter((p) => groups.has(p.pgid));
}

/**
 * Stops leftover processes by their groups.
 * @param {Array<{ pid: number, pgid: number }>} found
 */
export async function stopLeftovers(found) {
  for (const pgid of new Set(found.map((p) => p.pgid))) await stopProcessGroup(pgid, 1_000);
}

/** Sum of the proportional set size (PSS) of `pids`, in KiB; processes that vanished count 0. */
export async function memoryOf(pids) {
  let total = 0;
  for (const pid of pids) {
    const rollup = await readProc(pid, "smaps_rollup");
    const match = rollup?.match(/^Pss:\s+(\d+) kB/m);
    if (match) total += Number(match[1]);
  }
  return total;
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "ESRCH") return false;
    throw error;
  }
}

async function waitUntilGone(pgid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await processGroupMembers(pgid)).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await processGroupMembers(pgid)).length === 0;
}

/** The state and process group from /proc/pid/stat; zombies count as dead. */
async function readStat(pid) {
  const stat = await readProc(pid, "stat");
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses: parse after its last ")".
  const [state, , pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { alive: state !== "Z" && state !== "X", pgid: Number(pgid) };
}

async function listPids() {
  return (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry)).map(Number);
}

/** A /proc file of `pid`, or undefined when the process is gone or not ours to read. */
async function readProc(pid, file) {
  try {
    return await readFile(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Starts a process and resolves once a line of its output matches `ready`. If it exits or
 * stays silent for `timeoutMs` instead, its group is stopped and the error quotes its log.
 * @param {Parameters<typeof startProcess>[0]} options
 * @param {RegExp} ready
 * @returns {Promise<{ proc: OwnedProcess, match: RegExpMatchArray }>}
 */
export async function startAndWaitFor(options, ready, timeoutMs) {
  /** @type {(match: RegExpMatchArray) => void} */
  let onMatch = () => {};
  const matched = new Promise((resolve) => (onMatch = resolve));
  const proc = await startProcess({
    ...options,
    onLine: (line) => {
      options.onLine?.(line);
      const match = line.match(ready);
      if (match) onMatch(match);
    },
  });
  let timer;
  const outcome = await Promise.race([
    matched.then((match) => ({ match })),
    proc.exited.then((code) => ({ problem: `exited (${code})` })),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve({ problem: `printed nothing matching ${ready} within ${timeoutMs} ms` }), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if ("match" in outcome) return { proc, match: outcome.match };
  await stopProcessGroup(proc.pid);
  throw new Error(`${options.name} ${outcome.problem} before it was ready; the end of ${options.logFile}:\n${await logTail(options.logFile)}`);
}

/** The last lines of a log file, for error messages. */
export async function logTail(file, lines = 25) {
  try {
    return (await readFile(file, "utf8")).trimEnd().split("\n").slice(-lines).join("\n");
  } catch (error) {
    return `(cannot read ${file}: ${/** @type {Error} */ (error).message})`;
  }
}
