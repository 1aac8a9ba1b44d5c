/**
 * The "Tandem" terminals that show commands run through a wrapper (shown-command.ts): terminals
 * Tandem writes itself (a vscode.Pseudoterminal), one per command running at a time, kept for
 * the next one. Writes before VS Code opens the terminal are held until it does.
 */
import * as vscode from "vscode";
import { Disposable } from "../../core/util/disposable";
import { isInterrupt, type CommandScreen } from "./shown-command";

class ScreenTerminal implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writes.event;
  private readonly stops = new Set<() => void>();
  private pending: string[] | undefined = [];
  busy = false;
  closed = false;
  readonly terminal: vscode.Terminal;

  constructor(name: string) {
    this.terminal = vscode.window.createTerminal({ name, pty: this, iconPath: new vscode.ThemeIcon("hubot") });
  }

  open(): void {
    const held = this.pending ?? [];
    this.pending = undefined;
    for (const text of held) this.writes.fire(text);
  }

  /** The person closed the terminal: a command still shown there stops. */
  close(): void {
    this.closed = true;
    for (const stop of [...this.stops]) stop();
  }

  handleInput(data: string): void {
    if (isInterrupt(data)) for (const stop of [...this.stops]) stop();
  }

  screen(): CommandScreen {
    return {
      write: (text) => {
        if (!text || this.closed) return;
        if (this.pending) this.pending.push(text);
        else this.writes.fire(text);
      },
      reveal: () => this.terminal.show(true),
      onStop: (listener) => {
        this.stops.add(listener);
        return { dispose: () => this.stops.delete(listener) };
      },
    };
  }

  dispose(): void {
    this.closed = true;
    this.terminal.dispose();
    this.writes.dispose();
  }
}

export class WrappedTerminals extends Disposable {
  private readonly terminals = new Set<ScreenTerminal>();

  constructor(private readonly name: string) {
    super();
    this._register(
      vscode.window.onDidCloseTerminal((closed) => {
        for (const entry of this.terminals) if (entry.terminal === closed) this.terminals.delete(entry);
      }),
    );
    this._register({
      dispose: () => {
        for (const entry of this.terminals) entry.dispose();
        this.terminals.clear();
      },
    });
  }

  /** An idle terminal (or a new one), lent to one command until `release`. */
  acquire(): { readonly screen: CommandScreen; release(): void } {
    const entry = [...this.terminals].find((t) => !t.busy && !t.closed) ?? this.open();
    entry.busy = true;
    return { screen: entry.screen(), release: () => (entry.busy = false) };
  }

  private open(): ScreenTerminal {
    const entry = new ScreenTerminal(this.name);
    this.terminals.add(entry);
    return entry;
  }
}
