/**
 * Runs one hook process: its JSON input on stdin, its stdout and stderr kept within bounds, a
 * timeout. The process leads a process group of its own, and that whole group is killed when the
 * time is up, when the task stops it, when it prints more than the bound, and when the hook
 * exits (what it left running in the background must not outlive it), together with what left
 * the group (`setsid`: see util/process-tree.ts). The run ends at once then: once the hook has
 * exited, a leftover that still holds its pipes is waited for only briefly. It runs under a
 * lifeline (util/lifeline.ts), so a Tandem killed meanwhile, even with SIGKILL, takes it and all
 * it started along. Never rejects: a hook that cannot even start is a result with `startError`.
 */
import { spawnWithLifeline } from "../util/lifeline";
import { ProcessTree } from "../util/process-tree";

/** A hook may print this much on stdout; more is a problem (and the hook is stopped). */
export const MAX_HOOK_STDOUT = 64 * 1024;
/** The end of stderr kept for the chat. */
export const MAX_HOOK_STDERR = 8 * 1024;
/** After the hook exits: what it left in the background may still print this long, then it is killed. */
const LEFTOVER_GRACE_MS = 200;
/** After that kill: how long the pipes may still take to close before the run ends without them. */
const CLOSE_GRACE_MS = 1000;
/** How often the hook's descendants are looked for while it runs (a scan of /proc costs a few ms). */
const COLLECT_EVERY_MS = 250;

/** What to start: the hook itself, or the sandbox's launcher line that runs it. */
export interface HookLaunch {
  readonly command: string;
  readonly args: readonly string[];
}

export interface HookProcessOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly env?: NodeJS.ProcessEnv;
}

export interface HookProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly durationMs: number;
  /** Why Tandem stopped it, if it did. */
  readonly stoppedBy?: "timeout" | "cancel" | "output";
  readonly stdout: string;
  readonly stderr: string;
  /** The process could not be started at all (not executable, missing interpreter). */
  readonly startError?: string;
  /** The process's id (its process group's too). */
  readonly pid?: number;
}

export function runHookProcess(launch: HookLaunch, input: string, options: HookProcessOptions): Promise<HookProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    if (options.signal.aborted) return resolve({ exitCode: null, signal: null, durationMs: 0, stoppedBy: "cancel", stdout: "", stderr: "" });
    const lifeline = spawnWithLifeline(launch.command, launch.args, { cwd: options.cwd, env: options.env ?? process.env, label: "tandem-hook" });
    const { child, mark } = lifeline;
    const tree = child.pid === undefined ? undefined : new ProcessTree(child.pid, { mark, collectEveryMs: COLLECT_EVERY_MS });
    let stdout = "";
    let stderr = "";
    let stoppedBy: HookProcessResult["stoppedBy"];
    let settled = false;
    let exited: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;
    const later: NodeJS.Timeout[] = [];
    /** Everything the hook started, found before the hook itself is killed. */
    const killAll = () => {
      tree?.kill("SIGKILL");
      killGroup(child.pid);
    };
    const stop = (why: NonNullable<HookProcessResult["stoppedBy"]>) => {
      if (stoppedBy) return;
      stoppedBy = why;
      killAll();
      // Killed, it exits at once; should it not, the run ends all the same.
      later.push(setTimeout(() => finish(exited ?? { exitCode: null, signal: null }), LEFTOVER_GRACE_MS + CLOSE_GRACE_MS));
    };
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = () => stop("cancel");
    options.signal.addEventListener("abort", onAbort, { once: true });
    const finish = (result: Omit<HookProcessResult, "durationMs" | "stdout" | "stderr" | "pid">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const pending of later) clearTimeout(pending);
      options.signal.removeEventListener("abort", onAbort);
      // Leftovers of the hook (a background `sleep`) go with it, and must not hold its pipes open.
      killAll();
      lifeline.cut();
      tree?.dispose();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ ...result, ...(stoppedBy ? { stoppedBy } : {}), durationMs: Date.now() - started, stdout, stderr, ...(child.pid ? { pid: child.pid } : {}) });
    };
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    child.stdout?.on("data", (text: string) => {
      if (stdout.length + text.length > MAX_HOOK_STDOUT) {
        stdout += text.slice(0, MAX_HOOK_STDOUT - stdout.length);
        stop("output");
      } else stdout += text;
    });
    child.stderr?.on("data", (text: string) => (stderr = (stderr + text).slice(-MAX_HOOK_STDERR)));
    // A hook that exits without reading its input closes the pipe under us: not an error.
    child.stdin?.on("error", () => {});
    child.on("error", (error) => finish({ exitCode: null, signal: null, startError: error.message }));
    // "close" (every pipe drained) rather than "exit", so the last output is in.
    child.on("close", (exitCode, signal) => finish({ exitCode, signal }));
    // After the shell exits, what it left holding the pipes is killed (finish on exit would lose
    // output); one that cannot be killed does not hold the run past CLOSE_GRACE_MS.
    child.on("exit", (exitCode, signal) => {
      exited = { exitCode, signal };
      // The watcher holds fd 3, which "close" waits for; the leftovers are this process's to end now.
      lifeline.release();
      later.push(setTimeout(killAll, LEFTOVER_GRACE_MS));
      later.push(setTimeout(() => finish({ exitCode, signal }), LEFTOVER_GRACE_MS + CLOSE_GRACE_MS));
    });
    child.stdin?.end(input);
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is gone already.
  }
}
