import { resolve } from "node:path";
import type { HostBridge, TerminalHost } from "../bridge";
import { NodeTerminal } from "./node-terminal";

/**
 * The HostBridge outside any editor: the headless runner and the tests. Notifications go to a
 * callback (the CLI prints them to stderr); commands run as child processes.
 */
export class NodeHost implements HostBridge {
  readonly workspace: { readonly root: string };
  readonly window: HostBridge["window"];
  readonly terminal: TerminalHost;

  constructor(
    root: string,
    notify: (level: "info" | "warning" | "error", message: string) => void = () => {},
    terminal: TerminalHost = new NodeTerminal(),
  ) {
    // The core needs an absolute root (the command policy refuses anything else).
    this.workspace = { root: resolve(root) };
    this.window = { notify };
    this.terminal = terminal;
  }
}
