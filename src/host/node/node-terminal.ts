/**
 * Runs shell commands as plain child processes (the headless runner, the extension's sandboxed
 * commands and fallback, and the tests). Each command gets its own process group, so a timeout or
 * a cancelled task ends everything it started, grandchildren included, not only the shell; what
 * left the group (`setsid`) is found through /proc and ended with it (core/util/process-tree.ts).
 * A command that ends by itself may leave programs running in the background: they stay.
 * POSIX only: Windows has no process groups to kill.
 */
import type { ChildProcess } from "node:child_process";
import { spawnWithLifeline, type LifelineChild } from "../../core/util/lifeline";
import { ProcessTree } from "../../core/util/process-tree";
import type { CommandExit, RunCommandOptions, RunningCommand, TerminalActivity, TerminalHost, TerminalShell } from "../bridge";
import { TerminalActivityLog } from "./terminal-activity-log";

export interface NodeTerminalOptions {
  /** The shell that runs each command line with `-c`. Default: $SHELL, else /bin/sh. */
  readonly shell?: string;
  /** Between SIGTERM and SIGKILL, so well-behaved programs can clean up. Default 2000. */
  readonly killGraceMs?: number;
  /**
   * After the shell exits, how long to wait for the rest of its output. Programs it left running
   * in the background may hold the pipes open for ever, so the wait is bounded. Default 200.
   */
  readonly drainMs?: number;
}

/** How often a running command's descendants are looked for (a scan of /proc costs a few ms); its mark finds the rest at kill time. */
const COLLECT_EVERY_MS = 2000;

interface Settings {
  readonly shell: string;
  readonly killGraceMs: number;
  readonly drainMs: number;
}

export class NodeTerminal implements TerminalHost {
  private readonly settings: Settings;
  /** The commands this process ran, shown as terminals (sequential ones share one). */
  private readonly log = new TerminalActivityLog();

  constructor(options: NodeTerminalOptions = {}) {
    this.settings = {
      shell: options.shell ?? (process.env.SHELL || "/bin/sh"),
      killGraceMs: options.killGraceMs ?? 2000,
      drainMs: options.drainMs ?? 200,
    };
  }

  /** `shell -c line`: not interactive, so no history expansion. */
  get shell(): TerminalShell {
    return { path: this.settings.shell, interactive: false };
  }

  run(command: string, options: RunCommandOptions): RunningCommand {
    if (process.platform === "win32") throw new Error("The Node terminal needs a POSIX system (process groups); Windows is not supported.");
    const running = new ProcessGroupCommand(command, options, this.settings);
    const feed = this.log.beginInIdle("shell", options.shownAs ?? command);
    running.onOutput((text) => feed.output(text));
    // A start failure reaches the caller through `completion`; this copy of it only ends the feed.
    running.completion.finally(() => feed.end()).catch(() => undefined);
    return running;
  }

  /** The commands run lately, with the end of their output: the CLI's environment details show them. */
  activity(): readonly TerminalActivity[] {
    return this.log.activity();
  }
}

class ProcessGroupCommand implements RunningCommand {
  readonly completion: Promise<CommandExit>;
  private readonly listeners: ((text: string) => void)[] = [];
  private readonly child: ChildProcess | undefined;
  /** What the command started outside its group. */
  private readonly tree: ProcessTree | undefined;
  private readonly lifeline: LifelineChild | undefined;
  private stoppedBy: CommandExit["stoppedBy"] = null;
  private exited = false;
  /** Once settled, the group id may belong to someone else: never signal it again. */
  private settled = false;

  constructor(
    command: string,
    private readonly options: RunCommandOptions,
    private readonly settings: Settings,
  ) {
    if (options.signal.aborted) {
      // Cancelled before it started: nothing to run, nothing to kill.
      this.stoppedBy = "abort";
      this.completion = Promise.resolve({ exitCode: null, signal: null, stoppedBy: "abort" });
      return;
    }
    // detached: the shell becomes the leader of a new process group (its pid is the group id).
    // Under a lifeline: a Tandem killed meanwhile, even with SIGKILL, takes the command along.
    const lifeline = spawnWithLifeline(settings.shell, ["-c", command], { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], label: "tandem-command" });
    const child = lifeline.child;
    this.child = child;
    this.lifeline = lifeline;
    if (child.pid !== undefined) this.tree = new ProcessTree(child.pid, { mark: lifeline.mark, collectEveryMs: COLLECT_EVERY_MS });
    for (const stream of [child.stdout, child.stderr]) {
      // A per-stream decoder keeps multibyte characters whole across chunk boundaries.
      stream?.setEncoding("utf8");
      stream?.on("data", (text: string) => this.emit(text));
    }
    this.completion = this.watch(child);
  }

  onOutput(listener: (text: string) => void): void {
    this.listeners.push(listener);
  }

  kill(): void {
    this.stop("kill");
  }

  private emit(text: string): void {
    for (const listener of this.listeners) listener(text);
  }

  private async watch(child: ChildProcess): Promise<CommandExit> {
    const onAbort = () => this.stop("abort");
    this.options.signal.addEventListener("abort", onAbort, { once: true });
    const { timeoutMs } = this.options;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.stop("timeout"), timeoutMs);
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    try {
      const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
        child.once("exit", (code, sig) => resolve([code, sig]));
        // Kept for the child's lifetime: an "error" event without a listener would throw.
        child.on("error", (error) => reject(new Error(`Could not start the command in ${this.options.cwd}: ${error.message}`, { cause: error })));
      });
      this.exited = true;
      // Ended by itself, what it left in the background stays; stopped, the watcher finishes the job too.
      if (this.stoppedBy === null) this.lifeline?.release();
      else this.lifeline?.cut();
      await Promise.race([closed, delay(this.settings.drainMs)]);
      return { exitCode, signal, stoppedBy: this.stoppedBy };
    } finally {
      this.settled = true;
      // What it found stays known for a kill still to come (the SIGKILL after the grace).
      this.tree?.dispose();
      clearTimeout(timer);
      this.options.signal.removeEventListener("abort", onAbort);
      // Programs the command left running in the background must not keep us attached.
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
  }

  /** SIGTERM to the whole group and what left it, then SIGKILL for whatever ignored it. */
  private stop(reason: NonNullable<CommandExit["stoppedBy"]>): void {
    const pid = this.child?.pid;
    if (pid === undefined || this.stoppedBy !== null || this.settled) return;
    this.stoppedBy = reason;
    this.signalGroup(pid, "SIGTERM");
    // Not cleared when the shell exits: a grandchild that ignores SIGTERM may still be alive.
    setTimeout(() => this.signalGroup(pid, "SIGKILL"), this.settings.killGraceMs).unref();
  }

  private signalGroup(pid: number, signal: NodeJS.Signals): void {
    // The group first: one system call, where the tree's sweep reads /proc for every process. A
    // fork bomb starves Tandem of CPU, and the sandbox's bubblewrap is in the group: its end takes
    // the bomb's whole PID namespace with it before the sweep has to read thousands of entries.
    // What the group's end orphans is still found: by the links collected while it ran, and by its mark.
    try {
      process.kill(-pid, signal);
    } catch (error) {
      // ESRCH: the group is already gone. Anything else: at least end the shell itself.
      if ((error as NodeJS.ErrnoException).code !== "ESRCH" && !this.exited) this.child?.kill(signal);
    }
    this.tree?.kill(signal);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
