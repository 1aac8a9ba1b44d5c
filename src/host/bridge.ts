/**
 * What the agent core needs from an editor, split by capability. Plain data only: paths are
 * absolute strings, nothing here mentions VS Code. `host/vscode/` implements it inside the
 * editor; `host/node/` implements it for tests and the headless runner.
 */
export interface WorkspaceHost {
  /** Absolute path of the folder the task works in. */
  readonly root: string;
}

export interface WindowHost {
  /** A non-blocking notice to the person outside the chat. */
  notify(level: "info" | "warning" | "error", message: string): void;
}

export interface HostBridge {
  readonly workspace: WorkspaceHost;
  readonly window: WindowHost;
}
