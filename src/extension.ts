/**
 * Composition root: builds the VS Code host and the chat panel and registers the commands;
 * nothing else. Activation stays cheap: the core (Controller, tools, SDKs, dist/core.js) is loaded
 * only when the panel opens or a command first needs it (host/vscode/core-bundle.ts).
 */
import * as vscode from "vscode";
import { removeLeftoverTempFiles } from "./core/storage/leftover-temp-files";
import { checkpointsFolder, codeCacheFolder } from "./core/storage/paths";
import { loadCore, type LoadedCore } from "./host/vscode/core-bundle";
import { registerCommands } from "./host/vscode/commands";
import { SandboxFeed } from "./host/vscode/sandbox-feed";
import { VscodeSecretStore } from "./host/vscode/secret-store";
import { SessionHolder } from "./host/vscode/session-holder";
import { VscodeSettingsStore } from "./host/vscode/settings-store";
import { openWorkspaceFile, VscodeHost } from "./host/vscode/vscode-host";
import { saveWithDialog } from "./host/vscode/save-dialog";
import { CHAT_VIEW_ID, ChatViewProvider } from "./host/vscode/webview-provider";
import { McpOAuthBroker } from "./host/vscode/mcp-oauth";
import { createMcpHub, type McpSetup } from "./host/vscode/mcp-setup";
import { HooksWorkspaceTrust, TRUST_HOOKS_HINT } from "./host/vscode/hooks-trust";
import { SkillsWorkspaceTrust, TRUST_SKILLS_HINT } from "./host/vscode/skills-trust";
import { describeSandbox } from "./shared/sandbox-status";
import { AttentionToasts, showNotice } from "./host/vscode/attention-toasts";
import { listVscodeChatModels, onVscodeChatModelsChanged } from "./host/vscode/language-models";

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

/** Where the model lists read from servers are kept (VS Code's global state). */
const MODEL_LISTS_KEY = "tandem.modelLists";
/** Each provider's last model and base URL, for switching back to it in the settings view. */
const PROVIDER_CHOICES_KEY = "tandem.providerChoices";

export function activate(context: vscode.ExtensionContext): TandemExports {
  const log = vscode.window.createOutputChannel("Tandem", { log: true });
  // Temp files a killed window's atomic writes left, in the workspace and the saved tasks (never rejects).
  void removeLeftoverTempFiles([...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath), context.globalStorageUri.fsPath], {
    skip: [checkpointsFolder(context.globalStorageUri.fsPath)],
  });
  const settings = new VscodeSettingsStore(log);
  const secrets = new VscodeSecretStore(context.secrets);
  const host = new VscodeHost(log);
  // Registered here, once per activation: the URI handler is cheap, the hub comes with the session.
  const oauth = new McpOAuthBroker(context.secrets, context.extension.id);
  const workspaceTrusted = () => vscode.workspace.isTrusted;
  const hooksTrust = new HooksWorkspaceTrust(context.workspaceState, (message, detail, ...choices) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices), workspaceTrusted);
  const skillsTrust = new SkillsWorkspaceTrust(context.workspaceState, (message, detail, ...choices) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices), workspaceTrusted);
  // Loaded once, as require() would; its code cache is written once the page has its first state (so it holds what that compiled).
  let loaded: LoadedCore | undefined;
  const holder = new SessionHolder(async () => {
    await vscode.workspace.fs.createDirectory(context.globalStorageUri);
    loaded ??= loadCore(__dirname, codeCacheFolder(context.globalStorageUri.fsPath));
    const { WebviewSession, CommandSandbox, McpServerConfiner, gitCheckpoints, McpHub, ApiError, buildApiHandler } = loaded.core;
    log.info("Chat session started.");
    // The previous session's servers first: sandboxed ones run on the previous sandbox.
    void disposeMcp();
    // One sandbox per extension host (the library's proxies live in this process), checked once,
    // after the panel has its first state (or sooner, when a task needs it).
    let firstStatePosted!: () => void;
    const checkAfter = new Promise<void>((resolve) => (firstStatePosted = resolve));
    const sandbox = CommandSandbox.create(settings.getAgentSettings().sandbox, { privateStorage: privateStorage(context), checkAfter });
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
      post: (message) => {
        view.post(message);
        if (message.type === "state") firstStatePosted();
      },
      runningTaskChanged: (taskId) => view.runningTaskChanged(taskId),
      host,
      settings,
      secrets,
      storageRoot: context.globalStorageUri.fsPath,
      checkpoints: gitCheckpoints(context.globalStorageUri.fsPath, () => host.workspace.roots),
      openFile: openWorkspaceFile,
      saveFile: (fileName, content) => saveWithDialog(fileName, content, host.workspace.roots[0]?.path),
      hooks: { trustWorkspace: hooksTrust.decide, trustHint: TRUST_HOOKS_HINT },
      skills: { trustWorkspace: skillsTrust.decide, trustHint: TRUST_SKILLS_HINT },
      workspaceTrusted,
      // VS Code's own models need the vscode API, so their handler is built here; the core builds the others.
      createApiHandler: async (config) =>
        config.provider === "vscode-lm" ? new (await import("./host/vscode/language-model-handler")).VscodeLmHandler(config, { vscode, ApiError }) : buildApiHandler(config),
      vscodeModels: { list: () => listVscodeChatModels(vscode.lm) },
      providerMemory: {
        get: (provider) => context.globalState.get<Record<string, { modelId?: string; baseUrl?: string }>>(PROVIDER_CHOICES_KEY)?.[provider],
        set: (provider, choice) => context.globalState.update(PROVIDER_CHOICES_KEY, { ...context.globalState.get(PROVIDER_CHOICES_KEY), [provider]: choice }),
      },
      // Model lists read from servers (OpenRouter, Ollama, LM Studio): kept across windows, with no key in them.
      modelListStore: { get: () => context.globalState.get(MODEL_LISTS_KEY), set: (record) => context.globalState.update(MODEL_LISTS_KEY, record) },
    });
    made.session = session;
    // The Controller's emitter goes with the session, and this subscription with it.
    session.controller.events.onDidNeedAttention((notice) => toasts.notify(notice));
    context.subscriptions.push(onVscodeChatModelsChanged(vscode.lm, () => void session.vscodeModelsChanged()));
    // Servers connect in the background and never delay the panel; each failure shows in the MCP view.
    hub.start().catch((error: unknown) => log.error(`MCP servers could not start: ${error instanceof Error ? error.message : String(error)}`));
    return session;
  });
  const view = new ChatViewProvider(context.extensionUri, holder, log, context.workspaceState);
  const toasts = new AttentionToasts({
    focused: () => vscode.window.state.focused,
    enabled: () => settings.notificationsEnabled(),
    show: (text, button) => vscode.window.showInformationMessage(text, button),
    goTo: (notice) => showNotice(view, holder, notice),
    report: (error) => log.error(`A notification's Show failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  sessions = holder;
  const pageReady = view.onPageReady(() => {
    sandboxFeed?.repost();
    loaded?.keepCache().catch((error: unknown) => log.warn(`The core's code cache could not be written: ${error instanceof Error ? error.message : String(error)}`));
  });

  // deactivate() disposes the session (ending its task) before VS Code disposes these.
  context.subscriptions.push(
    log,
    settings,
    host,
    view,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }),
    ...registerCommands({ view, sessions: holder, settings, secrets, log, hooksTrust, skillsTrust }),
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
