import type { HostBridge, TerminalHost, WorkspaceHost } from "../bridge";
import { nameRoots } from "../../core/util/workspace-roots";
import { NodeTerminal } from "./node-terminal";

export interface NodeHostOptions {
  /** More workspace folders after the primary (the CLI's --root), named after their folders. */
  readonly extraRoots?: readonly string[];
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
  readonly workspace: WorkspaceHost;
  readonly window: HostBridge["window"];
  readonly terminal: TerminalHost;
  readonly ripgrep?: string | false;

  /** `root`: the primary workspace folder (resolved: the core needs absolute paths). */
  constructor(root: string, options: NodeHostOptions = {}) {
    this.workspace = { roots: nameRoots([root, ...(options.extraRoots ?? [])].map((folder) => ({ path: folder }))) };
    this.window = { notify: options.notify ?? (() => {}) };
    this.terminal = options.terminal ?? new NodeTerminal();
    if (options.ripgrep !== undefined) this.ripgrep = options.ripgrep;
  }
}
