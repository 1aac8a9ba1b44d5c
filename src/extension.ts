/**
 * Composition root: builds the VS Code host and the chat panel and registers the commands;
 * nothing else. Activation stays cheap: the core (Controller, tools, SDKs) is loaded by a dynamic
 * import only when the panel opens or a command first needs it.
 */
import * as vscode from "vscode";
import { removeLeftoverTempFiles } from "./core/storage/leftover-temp-files";
import { registerCommands } from "./host/vscode/commands";
import { SandboxFeed } from "./host/vscode/sandbox-feed";
import { VscodeSecretStore } from "./host/vscode/secret-store";
import { SessionHolder } from "./host/vscode/session-holder";
import { VscodeSettingsStore } from "./host/vscode/settings-store";
import { openWorkspaceFile, VscodeHost } from "./host/vscode/vscode-host";
import { CHAT_VIEW_ID, ChatViewProvider } from "./host/vscode/webview-provider";
import { McpOAuthBroker } from "./host/vscode/mcp-oauth";
import { createMcpHub, type McpSetup } from "./host/vscode/mcp-setup";
import { HooksWorkspaceTrust, TRUST_HOOKS_HINT } from "./host/vscode/hooks-trust";
import { describeSandbox } from "./shared/sandbox-status";

let sessions: SessionHolder | undefined;
/** Disposed after the session, whose task may still be running a command in the sandbox. */
let sandboxFeed: SandboxFeed | undefined;
/** The MCP servers, created with the session and shut down after it (a task may still be calling one). */
let mcp: McpSetup | undefined;

/**
 * What activate() returns (`vscode.extensions.getExtension("tandem.tandem").exports`): the host
 * objects the extension built, so the in-host test suites (test/e2e/host) drive the real diff
 * view, terminals and secret store. Not a public API for other extensions; it may change.
 */
export interface TandemExports {
  readonly host: VscodeHost;
  readonly secrets: VscodeSecretStore;
  readonly settings: VscodeSettingsStore;
}

export function activate(context: vscode.ExtensionContext): TandemExports {
  const log = vscode.window.createOutputChannel("Tandem", { log: true });
  // Temp files a killed window's atomic writes left, in the workspace and the saved tasks (never rejects).
  void removeLeftoverTempFiles([...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath), context.globalStorageUri.fsPath]);
  const settings = new VscodeSettingsStore(log);
  const secrets = new VscodeSecretStore(context.secrets);
  const host = new VscodeHost(log);
  // Registered here, once per activation: the URI handler is cheap, the hub comes with the session.
  const oauth = new McpOAuthBroker(context.secrets, context.extension.id);
  const hooksTrust = new HooksWorkspaceTrust(context.workspaceState, (message, detail, ...choices) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices));
  const holder = new SessionHolder(async () => {
    const [{ WebviewSession, CommandSandbox, McpServerConfiner, gitCheckpoints, McpHub }] = await Promise.all([
      import("./core/controller/webview-session"),
      vscode.workspace.fs.createDirectory(context.globalStorageUri),
    ]);
    log.info("Chat session started.");
    // The previous session's servers first: sandboxed ones run on the previous sandbox.
    void disposeMcp();
    // One sandbox per extension host (the library's proxies live in this process), checked once.
    const sandbox = CommandSandbox.create(settings.getAgentSettings().sandbox, { privateStorage: privateStorage(context) });
    let logged = false;
    sandboxFeed?.dispose();
    sandboxFeed = new SandboxFeed(
      sandbox,
      settings,
      (status) => {
        if (!logged) log.info(describeSandbox(status));
        logged = true;
        view.post({ type: "sandboxChanged", sandbox: status });
      },
      (error) => log.error(`The command sandbox could not take the new settings: ${error instanceof Error ? error.message : String(error)}`),
    );
    // Elicitations go to the session's panel; the hub starts only once the session exists.
    const made: { session?: InstanceType<typeof WebviewSession> } = {};
    mcp = createMcpHub({
      context,
      McpHub,
      oauth,
      sandbox: new McpServerConfiner(sandbox),
      elicit: (server, params, signal) => {
        if (!made.session) return Promise.resolve({ action: "decline" });
        // The form is in the panel: a person who does not see the panel is told where to answer.
        if (!view.visible) void vscode.window.showInformationMessage(`Tandem: the MCP server "${server}" asks for your input.`, "Show").then((choice) => choice && view.reveal());
        return made.session.elicit(server, params, signal);
      },
    });
    const hub = mcp.hub;
    const session = new WebviewSession({
      sandbox,
      mcp: hub,
      mcpHost: mcp.panelHost,
      post: (message) => view.post(message),
      runningTaskChanged: (taskId) => view.runningTaskChanged(taskId),
      host,
      settings,
      secrets,
      storageRoot: context.globalStorageUri.fsPath,
      checkpoints: gitCheckpoints(context.globalStorageUri.fsPath, () => host.workspace.root),
      openFile: openWorkspaceFile,
      hooks: { trustWorkspace: hooksTrust.decide, trustHint: TRUST_HOOKS_HINT },
    });
    made.session = session;
    // Servers connect in the background and never delay the panel; each failure shows in the MCP view.
    hub.start().catch((error: unknown) => log.error(`MCP servers could not start: ${error instanceof Error ? error.message : String(error)}`));
    return session;
  });
  const view = new ChatViewProvider(context.extensionUri, holder, log, context.workspaceState);
  sessions = holder;
  const pageReady = view.onPageReady(() => sandboxFeed?.repost());

  // deactivate() disposes the session (ending its task) before VS Code disposes these.
  context.subscriptions.push(
    log,
    settings,
    host,
    view,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }),
    ...registerCommands({ view, sessions: holder, settings, secrets, log, hooksTrust }),
    pageReady,
    oauth,
    vscode.window.registerUriHandler(oauth),
    { dispose: () => void holder.dispose().finally(disposeMcp).finally(disposeSandbox) },
  );
  return { host, secrets, settings };
}

/** Where VS Code keeps this extension's keys, task histories and logs: commands may not read them. */
function privateStorage(context: vscode.ExtensionContext): string[] {
  return [context.globalStorageUri.fsPath, context.storageUri?.fsPath, context.logUri.fsPath].filter((folder): folder is string => Boolean(folder));
}

function disposeMcp(): Promise<void> {
  const setup = mcp;
  mcp = undefined;
  setup?.subscriptions.dispose();
  return setup?.hub.shutdown() ?? Promise.resolve();
}

function disposeSandbox(): void {
  sandboxFeed?.dispose();
  sandboxFeed = undefined;
}

export async function deactivate(): Promise<void> {
  const holder = sessions;
  sessions = undefined;
  await holder?.dispose();
  // The servers before the sandbox that confines some of them.
  await disposeMcp();
  disposeSandbox();
}
