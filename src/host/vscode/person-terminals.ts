/**
 * The person's own terminals for `TerminalHost.activity()`: where shell integration reports a
 * command (`onDidStartTerminalShellExecution`), its command line and output (`execution.read()`,
 * escape sequences stripped, the echoed command line dropped) go into the activity log, which
 * keeps only a bounded tail. Tandem's own terminals are left to the terminal host, which logs
 * the commands it runs itself. The types are the few parts of VS Code's API used, so this file
 * needs no `vscode` at run time and is tested in Node.
 */
import type { TerminalActivityLog } from "../node/terminal-activity-log";
import { LeadingEchoFilter } from "./command-echo";
import { TerminalOutputCleaner } from "./terminal-output";

export interface WatchedTerminal {
  readonly name: string;
}

export interface ExecutionStart<T extends WatchedTerminal> {
  readonly terminal: T;
  readonly execution: { readonly commandLine: { readonly value: string }; read(): AsyncIterable<string> };
}

export interface PersonTerminalEvents<T extends WatchedTerminal> {
  onDidStartExecution(listener: (event: ExecutionStart<T>) => void): { dispose(): void };
  onDidCloseTerminal(listener: (terminal: T) => void): { dispose(): void };
  /** Tandem's own terminals, which are not watched here. */
  isTandems(terminal: T): boolean;
  readonly log: { warn(message: string): void };
}

/** Starts watching; dispose the result to stop. */
export function watchPersonTerminals<T extends WatchedTerminal>(activity: TerminalActivityLog, events: PersonTerminalEvents<T>): { dispose(): void } {
  const started = events.onDidStartExecution(({ terminal, execution }) => {
    if (events.isTandems(terminal)) return;
    const command = execution.commandLine.value;
    const feed = activity.begin(terminal, terminal.name, command || undefined);
    const cleaner = new TerminalOutputCleaner();
    const echo = new LeadingEchoFilter(command);
    // read() at once, in the start event: data written before it is called is lost.
    const stream = execution.read();
    void (async () => {
      try {
        for await (const chunk of stream) feed.output(echo.push(cleaner.push(chunk)));
        feed.output(echo.flush());
      } catch (error) {
        events.log.warn(`Stopped reading the output of "${terminal.name}": ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        feed.end();
      }
    })();
  });
  const closed = events.onDidCloseTerminal((terminal) => activity.remove(terminal));
  return {
    dispose: () => {
      started.dispose();
      closed.dispose();
    },
  };
}
