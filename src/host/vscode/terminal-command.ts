/**
 * One command run for the agent, with the exact RunningCommand semantics of host/bridge.ts. It
 * runs in a Tandem terminal through VS Code's shell integration (output from `execution.read()`,
 * the exit code from `onDidEndTerminalShellExecution`), so the person sees it as if typed; where
 * the shell has no integration it runs as a plain child process and says so in its output.
 * Timeout, abort and kill send Ctrl-C, and close the terminal if that does not end it.
 */
import { stat } from "node:fs/promises";
import type { CommandExit, RunCommandOptions, RunningCommand, TerminalHost } from "../bridge";
import { LeadingEchoFilter } from "./command-echo";
import { TerminalOutputCleaner } from "./terminal-output";

export const FALLBACK_NOTE = "(shell integration unavailable: output captured directly)\n";

type StopReason = NonNullable<CommandExit["stoppedBy"]>;

/*
 * The parts of VS Code's terminal API a command uses (vscode.Terminal, TerminalShellIntegration,
 * TerminalShellExecution fit them), so this file needs no `vscode` at run time and is tested in Node.
 */
export interface ShellExecution {
  read(): AsyncIterable<string>;
}

export interface CommandTerminal {
  sendText(text: string, shouldExecute?: boolean): void;
  show(preserveFocus?: boolean): void;
  readonly exitStatus: { readonly code: number | undefined } | undefined;
}

export interface ShellIntegration {
  executeCommand(commandLine: string): ShellExecution;
}

/** A terminal lent to one command. */
export interface TerminalSlot {
  readonly terminal: CommandTerminal;
  readonly shellIntegration: ShellIntegration;
  /** Settles when the terminal is gone (closed by the person, or destroyed). */
  readonly closed: Promise<void>;
  /** The command is over; the terminal may serve the next one. */
  release(): void;
  /** Closes the terminal: ends the shell and whatever it still runs. */
  destroy(): void;
}

export interface CommandEnvironment {
  /** A terminal with shell integration in `cwd`, or undefined when integration is unavailable. */
  acquire(cwd: string, stop: AbortSignal): Promise<TerminalSlot | undefined>;
  /** `window.onDidEndTerminalShellExecution`. */
  onDidEndExecution(listener: (event: { readonly execution: ShellExecution; readonly exitCode: number | undefined }) => void): { dispose(): void };
  /** Runs the command directly when there is no shell integration. */
  readonly fallback: TerminalHost;
  readonly log: { info(message: string): void; warn(message: string): void };
  /** Between Ctrl-C and closing the terminal. */
  readonly killGraceMs: number;
  /** After the end event, how long to wait for output still on its way. */
  readonly drainMs: number;
}

type Ending = { readonly kind: "ended"; readonly exitCode: number | undefined } | { readonly kind: "closed" };

export class TerminalCommand implements RunningCommand {
  readonly completion: Promise<CommandExit>;
  private readonly listeners: ((text: string) => void)[] = [];
  /** Aborted by stop(); wakes whatever the command is waiting for. */
  private readonly stopper = new AbortController();
  private stoppedBy: StopReason | null = null;
  private settled = false;
  /** Set while the command runs without shell integration. */
  private direct: RunningCommand | undefined;

  constructor(
    private readonly command: string,
    private readonly options: RunCommandOptions,
    private readonly env: CommandEnvironment,
  ) {
    if (options.signal.aborted) {
      // Cancelled before it started: nothing to run, nothing to kill.
      this.settled = true;
      this.completion = Promise.resolve({ exitCode: null, signal: null, stoppedBy: "abort" });
      return;
    }
    this.completion = this.run().finally(() => (this.settled = true));
  }

  onOutput(listener: (text: string) => void): void {
    this.listeners.push(listener);
  }

  kill(): void {
    this.stop("kill");
  }

  private emit(text: string): void {
    if (this.settled || !text) return;
    for (const listener of this.listeners) listener(text);
  }

  private stop(reason: StopReason): void {
    if (this.settled || this.stoppedBy !== null) return;
    if (this.direct) {
      // The child-process runner watches the signal and its timeout itself; only kill() is ours to pass on.
      if (reason === "kill") this.direct.kill();
      return;
    }
    this.stoppedBy = reason;
    this.stopper.abort();
  }

  private async run(): Promise<CommandExit> {
    await assertFolder(this.options.cwd);
    const onAbort = () => this.stop("abort");
    this.options.signal.addEventListener("abort", onAbort, { once: true });
    try {
      // Killed while the folder was checked: the stop's signal has fired already, so nothing would wake the wait below.
      if (this.stoppedBy !== null) return { exitCode: null, signal: null, stoppedBy: this.stoppedBy };
      const slot = await this.env.acquire(this.options.cwd, this.stopper.signal);
      if (this.stoppedBy !== null) {
        slot?.release();
        return { exitCode: null, signal: null, stoppedBy: this.stoppedBy };
      }
      if (!slot) {
        this.options.signal.removeEventListener("abort", onAbort);
        return await this.runDirectly();
      }
      return await this.runInTerminal(slot);
    } finally {
      this.options.signal.removeEventListener("abort", onAbort);
    }
  }

  private runDirectly(): Promise<CommandExit> {
    this.emit(FALLBACK_NOTE);
    const { cwd, timeoutMs, signal } = this.options;
    const direct = this.env.fallback.run(this.command, { cwd, timeoutMs, signal });
    this.direct = direct;
    direct.onOutput((text) => this.emit(text));
    return direct.completion;
  }

  private async runInTerminal(slot: TerminalSlot): Promise<CommandExit> {
    let execution: ShellExecution | undefined;
    let markEnded!: (exitCode: number | undefined) => void;
    const ended = new Promise<number | undefined>((resolve) => (markEnded = resolve));
    // Subscribed before the command starts, so a quick command's end is not missed.
    const endSubscription = this.env.onDidEndExecution((event) => {
      if (execution !== undefined && event.execution === execution) markEnded(event.exitCode);
    });
    let graceTimer: NodeJS.Timeout | undefined;
    const interrupt = () => {
      slot.terminal.sendText("\x03", false);
      graceTimer = setTimeout(() => {
        this.env.log.warn(`Ctrl-C did not end "${this.command}" within ${this.env.killGraceMs} ms; closing its terminal.`);
        slot.destroy();
      }, this.env.killGraceMs);
    };
    const { timeoutMs } = this.options;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.stop("timeout"), timeoutMs);
    try {
      slot.terminal.show(true);
      execution = slot.shellIntegration.executeCommand(this.command);
      // read() only yields data written after its first call: call it at once.
      const pumped = this.pump(execution.read());
      this.stopper.signal.addEventListener("abort", interrupt, { once: true });
      const ending = await Promise.race([
        ended.then((exitCode): Ending => ({ kind: "ended", exitCode })),
        slot.closed.then((): Ending => ({ kind: "closed" })),
      ]);
      await Promise.race([pumped, delay(this.env.drainMs)]);
      if (ending.kind === "ended") {
        slot.release();
        return { exitCode: ending.exitCode ?? null, signal: null, stoppedBy: this.stoppedBy };
      }
      if (this.stoppedBy === null) this.emit("\n(the terminal was closed before the command ended)\n");
      return { exitCode: slot.terminal.exitStatus?.code ?? null, signal: null, stoppedBy: this.stoppedBy };
    } finally {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      this.stopper.signal.removeEventListener("abort", interrupt);
      endSubscription.dispose();
    }
  }

  private async pump(stream: AsyncIterable<string>): Promise<void> {
    const cleaner = new TerminalOutputCleaner();
    const echo = new LeadingEchoFilter(this.command);
    try {
      for await (const chunk of stream) {
        if (this.settled) break;
        this.emit(echo.push(cleaner.push(chunk)));
      }
    } catch (error) {
      this.env.log.warn(`Reading the output of "${this.command}" failed: ${(error as Error).message}`);
    }
    this.emit(echo.flush());
  }
}

/** The same refusal as the child-process runner: a missing folder means it could not start. */
async function assertFolder(cwd: string): Promise<void> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(cwd)).isDirectory();
  } catch (error) {
    throw new Error(`Could not start the command in ${cwd}: ${(error as Error).message}`, { cause: error });
  }
  if (!isFolder) throw new Error(`Could not start the command in ${cwd}: it is not a folder.`);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
