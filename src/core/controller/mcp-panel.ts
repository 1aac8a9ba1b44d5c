/**
 * The panel's side of the McpHub: the servers' state as deltas, the MCP view's actions carried
 * out on the hub and its files, and the servers' requests for input (elicitations). The hub
 * owns every server's state and the files own their settings; this only listens and asks.
 */
import type { McpHub } from "../mcp";
import type { McpAction, McpElicitationAnswer, McpPanelState } from "../../shared/mcp";
import type { ToWebviewMessage } from "../../shared/protocol";
import type { DisposableLike } from "../util/disposable";
import { errorText } from "../util/error-text";
import { McpElicitations } from "./mcp-elicitations";
import { describeImport, ensureMcpFile, importClineServers } from "./mcp-files";
import { McpViewDeltas } from "./mcp-views";

/** What the host tells the panel about the hub's files and lends it for the actions. */
export interface McpPanelHost {
  readonly globalConfigFile: string;
  readonly workspaceConfigFile?: string;
  /** Where Cline may keep `cline_mcp_settings.json`, in the order to look. */
  readonly clineSettingsFiles: readonly string[];
  openFile(path: string): Promise<void>;
  /** Asks the person to trust the workspace's servers and starts what they allow; default: the hub asks its own `trustWorkspace`. */
  trustWorkspace?(): Promise<void>;
}

const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;

export class McpPanel implements DisposableLike {
  readonly elicitations: McpElicitations;
  private readonly deltas = new McpViewDeltas();
  private readonly subscription: DisposableLike;

  constructor(
    private readonly hub: McpHub,
    /** None: the file actions fail with a notice (the hub's own actions still work). */
    private readonly host: McpPanelHost | undefined,
    private readonly post: (message: ToWebviewMessage) => void,
    currentTaskId: () => string | undefined,
  ) {
    this.elicitations = new McpElicitations(
      {
        opened: (elicitation) => post({ type: "mcpElicitationOpened", elicitation }),
        closed: (id) => post({ type: "mcpElicitationClosed", id }),
      },
      currentTaskId,
    );
    this.subscription = hub.onDidChange((state) => {
      const delta = this.deltas.next(state);
      if (delta) post(delta);
    });
  }

  /** The whole view, for a page that loads; the deltas after it are measured from it. */
  state(): McpPanelState {
    return { available: true, ...this.deltas.whole(this.hub.state()), elicitations: this.elicitations.open() };
  }

  /** Carries out an action; a failure is thrown with a sentence that names it (the session posts it as a notice). */
  async act(action: McpAction): Promise<void> {
    try {
      await this.run(action);
    } catch (error) {
      throw new Error(`MCP: ${failed(action)}: ${errorText(error)}`, { cause: error });
    }
  }

  /** An answer to an elicitation; a refusal (closed, or a value that does not fit) is a notice and the form stays. */
  answer(answer: McpElicitationAnswer): void {
    const refused = this.elicitations.answer(answer);
    if (refused) this.post({ type: "notice", level: "warning", text: refused });
  }

  dispose(): void {
    this.subscription.dispose();
    this.elicitations.cancelAll();
  }

  private files(): McpPanelHost {
    if (!this.host) throw new Error("this host does not name MCP configuration files");
    return this.host;
  }

  private async run(a: McpAction): Promise<void> {
    switch (a.action) {
      case "setDisabled":
        return this.hub.setServerDisabled(a.server, a.disabled);
      case "restart":
        return this.hub.restartServer(a.server);
      case "delete":
        return this.hub.deleteServer(a.server);
      case "setTimeout":
        if (!Number.isFinite(a.seconds) || a.seconds <= 0 || a.seconds > MAX_TIMEOUT_SECONDS) {
          throw new Error(`the timeout must be a number of seconds between 1 and ${MAX_TIMEOUT_SECONDS}, not ${JSON.stringify(a.seconds)}`);
        }
        return this.hub.setServerTimeout(a.server, Math.round(a.seconds));
      case "setToolAutoApprove":
        return this.hub.setToolAutoApprove(a.server, a.tool, a.allow);
      case "editConfig": {
        const { globalConfigFile, openFile } = this.files();
        await ensureMcpFile(globalConfigFile);
        return openFile(globalConfigFile);
      }
      case "openWorkspaceConfig": {
        const { workspaceConfigFile, openFile } = this.files();
        if (!workspaceConfigFile) throw new Error("no workspace folder is open");
        await ensureMcpFile(workspaceConfigFile);
        return openFile(workspaceConfigFile);
      }
      case "trustWorkspace":
        return this.host?.trustWorkspace ? this.host.trustWorkspace() : this.hub.refreshWorkspaceTrust();
      case "importFromCline": {
        const { clineSettingsFiles, globalConfigFile } = this.files();
        const result = await importClineServers(clineSettingsFiles, globalConfigFile);
        if (result.imported.length > 0) await this.hub.reload("global");
        this.post({ type: "notice", level: "info", text: describeImport(result) });
        return;
      }
    }
  }
}

function failed(a: McpAction): string {
  switch (a.action) {
    case "setDisabled":
      return `could not ${a.disabled ? "disable" : "enable"} "${a.server}"`;
    case "restart":
      return `could not restart "${a.server}"`;
    case "delete":
      return `could not delete "${a.server}"`;
    case "setTimeout":
      return `could not set the timeout of "${a.server}"`;
    case "setToolAutoApprove":
      return `could not change auto-approve of "${a.server}/${a.tool}"`;
    case "editConfig":
      return "could not open the configuration";
    case "openWorkspaceConfig":
      return "could not open the workspace's configuration";
    case "trustWorkspace":
      return "could not trust the workspace's servers";
    case "importFromCline":
      return "could not import from Cline";
  }
}
