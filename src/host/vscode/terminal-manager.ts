/**
 * TerminalHost inside VS Code: keeps the "Tandem" terminals, lends an idle one whose folder
 * matches to each command (or opens a new one), and waits a few seconds for its shell
 * integration. A command whose terminal is not ready in time runs as a child process instead,
 * and the terminal stays for the next command: a busy machine can be slow to start the first
 * shell. Only when integration fails to come twice in a row (and no Tandem terminal has it) is it
 * given up, so later commands go straight to the child-process runner until the terminal
 * settings change. A command run through a wrapper (the sandbox's launcher, `shownAs`) is not
 * typed into a shell at all: it runs as a child process, shown as typed in a Tandem terminal that
 * Tandem writes itself (wrapped-terminals.ts).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { RunCommandOptions, RunningCommand, TerminalActivity, TerminalHost, TerminalShell } from "../bridge";
import { Disposable } from "../../core/util/disposable";
import { TerminalActivityLog } from "../node/terminal-activity-log";
import { watchPersonTerminals } from "./person-terminals";
import { ShownCommand } from "./shown-command";
import { TerminalCommand, type CommandEnvironment, type TerminalSlot } from "./terminal-command";
import { WrappedTerminals } from "./wrapped-terminals";

export interface TerminalManagerOptions {
  /** How long a new terminal gets to activate shell integration. Default 5000. */
  readonly shellIntegrationTimeoutMs?: number;
  /** Between Ctrl-C and closing the terminal. Default 3000. */
  readonly killGraceMs?: number;
  /** After a command ends, how long to wait for the rest of its output. Default 500. */
  readonly drainMs?: number;
}

const TERMINAL_NAME = "Tandem";
/** Waits for shell integration that timed out in a row before commands stop trying terminals. */
const MISSES_BEFORE_GIVING_UP = 2;

/** A terminal Tandem opened. */
class TandemTerminal {
  busy = false;
  /** Once a command ran, the shell may have changed folder; only the shell's report counts then. */
  used = false;
  readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor(
    readonly terminal: vscode.Terminal,
    private readonly createdIn: string,
  ) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  isIn(cwd: string): boolean {
    const reported = this.terminal.shellIntegration?.cwd;
    // code-server reports the folder as vscode-local:/path, desktop VS Code as file:///path.
    if (reported) return samePath(reported.scheme === "file" ? reported.fsPath : reported.path, cwd);
    return !this.used && samePath(this.createdIn, cwd);
  }

  gone(): void {
    this.markClosed();
  }
}

export class VscodeTerminalHost extends Disposable implements TerminalHost {
  private readonly terminals = new Map<vscode.Terminal, TandemTerminal>();
  private integrationUnavailable = false;
  private integrationMisses = 0;
  private readonly env: CommandEnvironment;
  private readonly integrationTimeoutMs: number;
  /** Tandem's commands and the person's, for the environment details and `@terminal`. */
  private readonly activityLog = new TerminalActivityLog();
  /** Where commands run through a wrapper (the sandbox's launcher) show as typed. */
  private readonly wrapped: WrappedTerminals;

  constructor(fallback: TerminalHost, log: vscode.LogOutputChannel, options: TerminalManagerOptions = {}) {
    super();
    // Long enough for most shells; a late one only costs its first command the terminal.
    this.integrationTimeoutMs = options.shellIntegrationTimeoutMs ?? 5_000;
    this.wrapped = this._register(new WrappedTerminals(TERMINAL_NAME));
    this.env = {
      acquire: (cwd, stop) => this.acquire(cwd, stop),
      onDidEndExecution: (listener) => vscode.window.onDidEndTerminalShellExecution(listener),
      fallback,
      log,
      killGraceMs: options.killGraceMs ?? 3000,
      drainMs: options.drainMs ?? 500,
    };
    this._register(
      vscode.window.onDidCloseTerminal((terminal) => {
        this.terminals.get(terminal)?.gone();
        this.terminals.delete(terminal);
      }),
    );
    this._register(
      vscode.window.onDidChangeTerminalShellIntegration(({ terminal }) => {
        if (this.terminals.has(terminal)) this.integrationMisses = 0;
      }),
    );
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration("terminal.integrated")) return;
        this.integrationUnavailable = false;
        this.integrationMisses = 0;
      }),
    );
    this._register(
      watchPersonTerminals<vscode.Terminal>(this.activityLog, {
        onDidStartExecution: (listener) => vscode.window.onDidStartTerminalShellExecution(listener),
        onDidCloseTerminal: (listener) => vscode.window.onDidCloseTerminal(listener),
        isTandems: (terminal) => this.terminals.has(terminal),
        log,
      }),
    );
    // Tandem's terminals go with it (and settle any command still waiting on one).
    this._register({
      dispose: () => {
        for (const entry of this.terminals.values()) {
          entry.gone();
          entry.terminal.dispose();
        }
        this.terminals.clear();
      },
    });
  }

  /**
   * Tandem's terminals open with the default profile (`vscode.env.shell`), interactive; a command
   * may also land in the child-process fallback. When the two shells differ, the shell is unknown.
   */
  get shell(): TerminalShell {
    const fallback = this.env.fallback.shell;
    if (this.integrationUnavailable) return fallback ?? { path: undefined, interactive: false };
    const terminal = vscode.env.shell || undefined;
    const same = terminal !== undefined && fallback?.path !== undefined && path.basename(terminal) === path.basename(fallback.path);
    return { path: same ? terminal : undefined, interactive: true };
  }

  run(command: string, options: RunCommandOptions): RunningCommand {
    if (this.isDisposed) throw new Error("Tandem's terminals are closed (the extension is shutting down).");
    const running = options.shownAs === undefined ? new TerminalCommand(command, options, this.env) : this.runShown(command, options.shownAs, options);
    // Logged here, whichever way it runs (a Tandem terminal or the child-process fallback).
    const feed = this.activityLog.beginInIdle(TERMINAL_NAME, options.shownAs ?? command);
    running.onOutput((text) => feed.output(text));
    running.completion.finally(() => feed.end()).catch(() => undefined);
    return running;
  }

  /**
   * A wrapper typed into the shell would show as itself (the sandbox's launcher line): it runs as a
   * child process instead, in a terminal that shows the command as typed.
   */
  private runShown(line: string, shownAs: string, options: RunCommandOptions): RunningCommand {
    const lent = this.wrapped.acquire();
    const running = new ShownCommand(line, shownAs, options, this.env.fallback, lent.screen);
    running.completion.finally(() => lent.release()).catch(() => undefined);
    return running;
  }

  /** The terminals' recent commands and output, most recently used first. */
  activity(): readonly TerminalActivity[] {
    return this.activityLog.activity();
  }

  private async acquire(cwd: string, stop: AbortSignal): Promise<TerminalSlot | undefined> {
    if (this.integrationUnavailable) return undefined;
    const entry = this.idleTerminal(cwd) ?? this.open(cwd);
    entry.busy = true;
    const integration = entry.terminal.shellIntegration ?? (await this.waitForIntegration(entry, stop));
    if (!integration) {
      // Integration may still come: the terminal can serve the next command.
      entry.busy = false;
      // Stopped, or closed by the person while it started: no verdict on shell integration.
      if (!stop.aborted && this.terminals.has(entry.terminal)) this.noteMissedIntegration();
      return undefined;
    }
    this.integrationMisses = 0;
    entry.used = true;
    return {
      terminal: entry.terminal,
      shellIntegration: integration,
      closed: entry.closed,
      release: () => (entry.busy = false),
      destroy: () => this.close(entry),
    };
  }

  /** An idle terminal in the folder: one with integration first, else one still starting. */
  private idleTerminal(cwd: string): TandemTerminal | undefined {
    const idle = [...this.terminals.values()].filter((t) => !t.busy && t.terminal.exitStatus === undefined && t.isIn(cwd));
    return idle.find((t) => t.terminal.shellIntegration) ?? idle[0];
  }

  private noteMissedIntegration(): void {
    this.integrationMisses++;
    if (this.integrationMisses < MISSES_BEFORE_GIVING_UP) {
      this.env.log.info(`Shell integration was not active after ${this.integrationTimeoutMs} ms; this command runs as a child process, the next one tries the terminal again.`);
      return;
    }
    this.env.log.warn(`Shell integration did not activate in ${this.integrationMisses} tries of ${this.integrationTimeoutMs} ms; commands will run as plain child processes.`);
    this.integrationUnavailable = true;
    for (const entry of [...this.terminals.values()]) if (!entry.busy && !entry.terminal.shellIntegration) this.close(entry);
  }

  private open(cwd: string): TandemTerminal {
    const terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, cwd, iconPath: new vscode.ThemeIcon("hubot") });
    const entry = new TandemTerminal(terminal, cwd);
    this.terminals.set(terminal, entry);
    return entry;
  }

  private close(entry: TandemTerminal): void {
    this.terminals.delete(entry.terminal);
    entry.gone();
    entry.terminal.dispose();
  }

  private waitForIntegration(entry: TandemTerminal, stop: AbortSignal): Promise<vscode.TerminalShellIntegration | undefined> {
    return new Promise((resolve) => {
      const finish = (value: vscode.TerminalShellIntegration | undefined) => {
        clearTimeout(timer);
        subscription.dispose();
        stop.removeEventListener("abort", onStop);
        resolve(value);
      };
      const onStop = () => finish(undefined);
      const subscription = vscode.window.onDidChangeTerminalShellIntegration((event) => {
        if (event.terminal === entry.terminal) finish(event.shellIntegration);
      });
      const timer = setTimeout(() => finish(entry.terminal.shellIntegration), this.integrationTimeoutMs);
      stop.addEventListener("abort", onStop, { once: true });
      void entry.closed.then(() => finish(undefined));
      if (stop.aborted) finish(undefined);
    });
  }
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string) => path.resolve(p).replace(/[\\/]+$/, "");
  return process.platform === "win32" ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
}
