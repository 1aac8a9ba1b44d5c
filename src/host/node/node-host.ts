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
    this.workspace = { root };
    this.window = { notify };
    this.terminal = terminal;
  }
}
