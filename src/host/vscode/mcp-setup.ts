/**
 * Builds the McpHub for VS Code when the chat session starts (inside the lazy core import, so
 * activation never loads the SDK and no server delays the panel): the global file in Tandem's
 * global storage, the workspace's `.tandem/mcp.json` in the first folder, trust asked in a modal,
 * the folders as roots, OAuth through the browser, the command sandbox for `"sandbox": true`
 * servers, and what the MCP view's file actions need.
 */
import * as os from "node:os";
import * as vscode from "vscode";
import type { McpHub, McpHubOptions, McpPanelHost, McpServerSandbox } from "../../core/controller/webview-session";
import { clineSettingsCandidates } from "./cline-settings-path";
import { McpWorkspaceTrust } from "./mcp-trust";
import type { McpOAuthBroker } from "./mcp-oauth";
import { openWorkspaceFile } from "./vscode-host";
import { globalMcpSettingsFile, workspaceMcpFile } from "../../core/storage/paths";

export interface McpSetup {
  readonly hub: McpHub;
  readonly panelHost: McpPanelHost;
  /** Ends what listens for the editor (folder changes); the hub itself is shut down by its owner. */
  readonly subscriptions: vscode.Disposable;
}

export interface McpSetupDeps {
  readonly context: vscode.ExtensionContext;
  /** The class, from the lazily loaded core bundle. */
  readonly McpHub: new (options: McpHubOptions) => McpHub;
  readonly oauth: McpOAuthBroker;
  readonly elicit: NonNullable<McpHubOptions["elicit"]>;
  /** The command sandbox, for servers configured with `"sandbox": true`. */
  readonly sandbox: McpServerSandbox;
}

export function createMcpHub({ context, McpHub: Hub, oauth, elicit, sandbox }: McpSetupDeps): McpSetup {
  const globalConfigFile = globalMcpSettingsFile(context.globalStorageUri.fsPath);
  const first = folders()[0];
  const workspaceConfigFile = first ? workspaceMcpFile(first) : undefined;
  const trust = new McpWorkspaceTrust(context.workspaceState, (message, detail, ...choices) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices), () => vscode.workspace.isTrusted);
  const hub = new Hub({
    globalConfigFile,
    workspaceConfigFile,
    trustWorkspace: trust.decide,
    workspaceFolders: folders,
    elicit,
    oauth: oauth.host(),
    sandbox,
    clientInfo: { name: "tandem", version: String((context.extension.packageJSON as { version?: unknown }).version ?? "0.0.0") },
  });
  const panelHost: McpPanelHost = {
    globalConfigFile,
    workspaceConfigFile,
    clineSettingsFiles: clineSettingsCandidates({
      globalStorage: context.globalStorageUri.fsPath,
      platform: process.platform,
      home: os.homedir(),
      appData: process.env.APPDATA,
      xdgConfigHome: process.env.XDG_CONFIG_HOME,
    }),
    openFile: openWorkspaceFile,
    trustWorkspace: async () => {
      trust.willAskAgain();
      await hub.refreshWorkspaceTrust();
    },
  };
  // The roots follow the folders; the workspace file stays the first folder's until the next session.
  // Trusting the window (leaving Restricted Mode) is when the workspace's servers may be asked about.
  const subscriptions = vscode.Disposable.from(
    vscode.workspace.onDidChangeWorkspaceFolders(() => hub.rootsChanged()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void hub.refreshWorkspaceTrust()),
  );
  return { hub, panelHost, subscriptions };
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}
