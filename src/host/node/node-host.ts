import type { HostBridge } from "../bridge";

/**
 * The HostBridge outside any editor: the headless runner and the tests. Notifications go to a
 * callback (the CLI prints them to stderr).
 */
export class NodeHost implements HostBridge {
  readonly workspace: { readonly root: string };
  readonly window: HostBridge["window"];

  constructor(root: string, notify: (level: "info" | "warning" | "error", message: string) => void = () => {}) {
    this.workspace = { root };
    this.window = { notify };
  }
}
