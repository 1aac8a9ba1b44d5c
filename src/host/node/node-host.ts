import { resolve } from "node:path";
import type { HostBridge, TerminalHost } from "../bridge";
import { NodeTerminal } from "./node-terminal";

export interface NodeHostOptions {
  /** Where notifications go (the CLI prints them to stderr); default: nowhere. */
  readonly notify?: (level: "info" | "warning" | "error", message: string) => void;
  readonly terminal?: TerminalHost;
  /** See `HostBridge.ripgrep`; default: `rg` on PATH. */
  readonly ripgrep?: string | false;
}

/**
 * The HostBridge outside any editor: the headless runner and the tests. Notifications go to a
 * callback; commands run as child processes.
 */
export class NodeHost implements HostBridge {
  readonly workspace: { readonly root: string };
  readonly window: HostBridge["window"];
  readonly terminal: TerminalHost;
  readonly ripgrep?: string | false;

  constructor(root: string, options: NodeHostOptions = {}) {
    // The core needs an absolute root (the command policy refuses anything else).
    this.workspace = { root: resolve(root) };
    this.window = { notify: options.notify ?? (() => {}) };
    this.terminal = options.terminal ?? new NodeTerminal();
    if (options.ripgrep !== undefined) this.ripgrep = options.ripgrep;
  }
}
