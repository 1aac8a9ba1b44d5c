/**
 * The one way a task runs commands (execute_command, the result's suggested command, and what
 * runs in the background): through the host's terminal, confined by the OS sandbox when it is
 * active. Owns the task's temp folder (TMPDIR inside the sandbox), and starts the task's walk of
 * the workspace (what the sandbox must hide; the walks are the session's: workspace-scan.ts).
 */
import { rmSync } from "node:fs";
import type { CommandExit, RunCommandOptions, RunningCommand, TerminalHost } from "../../host/bridge";
import type { CommandConfinement } from "../../shared/command-run";
import type { SandboxStatus } from "../../shared/sandbox-status";
import type { BlockedFinding } from "./blocked-report";
import type { PathGuard } from "../ignore/path-guard";
import type { CommandSandbox, SandboxedLine } from "./command-sandbox";
import type { WorkspaceWalks } from "./workspace-scan";

/** A command started by TaskCommands: the host's RunningCommand, and what the sandbox saw. */
export interface TaskCommand extends RunningCommand {
  /** What it runs under (inside the sandbox, outside it by request, or with none). */
  readonly confinement: CommandConfinement;
  /** After it ended: what the sandbox blocked, for the model and the person (undefined when nothing). */
  blocked(exit: CommandExit, output: string): BlockedFinding | undefined;
  /** The hosts the sandbox let it reach so far (none outside the sandbox: nothing there hears them). */
  hostsReached(): readonly string[];
}

export interface CommandRunOptions extends RunCommandOptions {
  /** The person approved running it outside the sandbox. */
  readonly outsideSandbox?: boolean;
}

export interface CommandRunner {
  /** What the sandbox does now; undefined when the host has none to offer (tests, old hosts). */
  readonly sandbox: SandboxStatus | undefined;
  /** What a command would run under now (the approval row shows it; `run` applies the same rule). */
  confinement(outsideSandbox: boolean): CommandConfinement;
  run(command: string, options: CommandRunOptions): TaskCommand;
}

/**
 * The one rule for what a command runs under: the sandbox when it is active, unless the person let
 * this one run outside it. No host sandbox (tests, old hosts) reads as unavailable.
 */
export function confinementOf(status: SandboxStatus | undefined, outsideSandbox: boolean): CommandConfinement {
  if (!status) return { kind: "none", why: "unavailable" };
  if (status.active) {
    if (outsideSandbox) return { kind: "outside" };
    return {
      kind: "sandboxed",
      technology: status.technology ?? "OS sandbox",
      network: status.network,
      allowedDomains: status.allowedDomains.length,
      writableFolders: [...status.writableFolders],
    };
  }
  if (status.mode === "off") return { kind: "none", why: "off" };
  return { kind: "none", why: "unavailable", ...(status.reason ? { reason: status.reason } : {}) };
}

/** What a task needs of the session's CommandSandbox. */
export type TaskSandbox = Pick<CommandSandbox, "status" | "wrap" | "makeTaskTemp" | "walksOf">;

export class TaskCommands implements CommandRunner {
  private tempDir: string | undefined;
  private walked = false;

  constructor(
    private readonly terminal: TerminalHost,
    private readonly commandSandbox: TaskSandbox | undefined,
    private readonly roots: readonly string[],
    private readonly guard: PathGuard,
  ) {}

  /**
   * The task begins: when commands run sandboxed, the workspace is walked now, while the model
   * writes its first answer, so its first command need not wait. Once per task.
   */
  walkAhead(): void {
    if (this.commandSandbox?.status.active) this.startWalk(this.walksOf(this.commandSandbox));
  }

  get sandbox(): SandboxStatus | undefined {
    return this.commandSandbox?.status;
  }

  confinement(outsideSandbox: boolean): CommandConfinement {
    return confinementOf(this.commandSandbox?.status, outsideSandbox);
  }

  run(command: string, options: CommandRunOptions): TaskCommand {
    const confinement = this.confinement(options.outsideSandbox === true);
    if (!this.commandSandbox || confinement.kind !== "sandboxed") return unconfined(this.terminal.run(command, options), confinement);
    const prepared = this.prepare(this.commandSandbox, command, options);
    const start = (line: string) => this.terminal.run(line, { ...options, shownAs: command });
    const walks = this.walksOf(this.commandSandbox);
    return new ConfinedCommand(confinement, prepared, start, () => walks.refresh(), options.signal);
  }

  /**
   * For a process Tandem starts itself because it needs its stdin (a hook): the line that runs
   * `command` confined as a command would be, or undefined when commands run unconfined.
   */
  async confine(command: string, cwd: string, signal: AbortSignal): Promise<SandboxedLine | undefined> {
    if (!this.commandSandbox?.status.active) return undefined;
    return this.prepare(this.commandSandbox, command, { cwd, signal });
  }

  /** Removes the task's temp folder. */
  dispose(): void {
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }

  private walksOf(sandbox: TaskSandbox): WorkspaceWalks {
    return sandbox.walksOf(this.roots, this.guard);
  }

  private startWalk(walks: WorkspaceWalks): void {
    if (this.walked) return;
    this.walked = true;
    walks.start();
  }

  private async prepare(sandbox: TaskSandbox, command: string, options: CommandRunOptions): Promise<SandboxedLine> {
    // Without the walk ahead (the sandbox came on since, a test): an earlier task's walk serves only while this one's runs.
    const walks = this.walksOf(sandbox);
    this.startWalk(walks);
    const findings = await walks.current();
    const resume = walks.hold();
    try {
      this.tempDir ??= sandbox.makeTaskTemp();
      const shell = this.terminal.shell?.path;
      const line = await sandbox.wrap(
        command,
        { cwd: options.cwd, roots: this.roots, tempDir: this.tempDir, hiddenReads: findings.hiddenReads, readOnly: findings.readOnly, ...(shell ? { shell } : {}) },
        options.signal,
      );
      return {
        line: line.line,
        blocked: (exitCode, output) => line.blocked(exitCode, output),
        hostsReached: () => line.hostsReached(),
        release: () => {
          resume();
          line.release();
        },
      };
    } catch (error) {
      resume();
      throw error;
    }
  }
}

function unconfined(running: RunningCommand, confinement: CommandConfinement): TaskCommand {
  return {
    confinement,
    completion: running.completion,
    onOutput: (listener) => running.onOutput(listener),
    kill: () => running.kill(),
    blocked: () => undefined,
    hostsReached: () => [],
  };
}

/** Started once the sandbox has wrapped it (a walk of the workspace, the wrap itself). */
class ConfinedCommand implements TaskCommand {
  readonly completion: Promise<CommandExit>;
  private readonly listeners: ((text: string) => void)[] = [];
  private running: RunningCommand | undefined;
  private line: SandboxedLine | undefined;
  private killed = false;

  constructor(
    readonly confinement: CommandConfinement,
    prepared: Promise<SandboxedLine>,
    start: (line: string) => RunningCommand,
    ended: () => void,
    signal: AbortSignal,
  ) {
    const wrapped = prepared.catch((error: unknown) => {
      // Cancelled while the sandbox was being prepared: nothing ran.
      if (signal.aborted) return undefined;
      throw error;
    });
    this.completion = wrapped.then(async (line) => {
      if (!line) return { exitCode: null, signal: null, stoppedBy: "abort" } as const;
      this.line = line;
      try {
        if (this.killed) return { exitCode: null, signal: null, stoppedBy: "kill" } as const;
        const running = start(line.line);
        this.running = running;
        running.onOutput((text) => this.listeners.forEach((listener) => listener(text)));
        return await running.completion;
      } finally {
        line.release();
        ended();
      }
    });
  }

  onOutput(listener: (text: string) => void): void {
    this.listeners.push(listener);
  }

  kill(): void {
    this.killed = true;
    this.running?.kill();
  }

  blocked(exit: CommandExit, output: string): BlockedFinding | undefined {
    if (exit.stoppedBy !== null) return undefined;
    return this.line?.blocked(exit.exitCode, output);
  }

  hostsReached(): readonly string[] {
    return this.line?.hostsReached() ?? [];
  }
}
