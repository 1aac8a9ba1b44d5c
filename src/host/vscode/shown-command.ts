/**
 * A command that runs through a wrapper (the OS sandbox's launcher) must not be typed into a shell:
 * the shell would echo the launcher's line, not the command. So the wrapper runs as a child process
 * (the child-process runner: process group, timeout, abort) and a screen Tandem writes itself shows
 * the command as typed, once, then its output. Ctrl-C on that screen, or closing it, stops it.
 * No `vscode` here: the screen is a Pseudoterminal in wrapped-terminals.ts, a fake in tests.
 */
import type { CommandExit, RunCommandOptions, RunningCommand, TerminalHost } from "../bridge";

/** What a command needs of the terminal that shows it. */
export interface CommandScreen {
  write(text: string): void;
  /** Brings the terminal into view without taking the focus. */
  reveal(): void;
  /** Ctrl-C typed in it, or the terminal closed: the command should stop. */
  onStop(listener: () => void): { dispose(): void };
}

const CTRL_C = "\x03";

export class ShownCommand implements RunningCommand {
  readonly completion: Promise<CommandExit>;
  private readonly running: RunningCommand;

  /**
   * @param line what runs (the wrapper)
   * @param shownAs what the person sees: the command as the model wrote it
   */
  constructor(line: string, shownAs: string, options: RunCommandOptions, runner: TerminalHost, screen: CommandScreen) {
    screen.reveal();
    screen.write(commandLine(shownAs));
    this.running = runner.run(line, { cwd: options.cwd, signal: options.signal, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
    const lines = new LineEnds();
    this.running.onOutput((text) => screen.write(lines.push(text)));
    const stop = screen.onStop(() => this.running.kill());
    this.completion = this.running.completion.finally(() => {
      stop.dispose();
      screen.write(lines.end());
    });
  }

  onOutput(listener: (text: string) => void): void {
    this.running.onOutput(listener);
  }

  kill(): void {
    this.running.kill();
  }
}

/** The typed line: a dim prompt, the command, a line break (a terminal needs CR LF). */
export function commandLine(command: string): string {
  return `\x1b[2m$\x1b[0m ${command.replace(/\r?\n/g, "\r\n")}\r\n`;
}

/** True when `data` typed into the screen asks to interrupt. */
export function isInterrupt(data: string): boolean {
  return data.includes(CTRL_C);
}

/** Output for a terminal: LF becomes CR LF; at the end, the cursor goes back to a fresh line. */
export class LineEnds {
  private atLineStart = true;

  push(text: string): string {
    if (!text) return "";
    this.atLineStart = text.endsWith("\n");
    return text.replace(/\r?\n/g, "\r\n");
  }

  end(): string {
    const out = this.atLineStart ? "" : "\r\n";
    this.atLineStart = true;
    return out;
  }
}
