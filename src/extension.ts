/**
 * Composition root: builds the VS Code host and the chat panel and registers the commands;
 * nothing else. Activation stays cheap: the core (Controller, tools, SDKs) is loaded by a dynamic
 * import only when the panel opens or a command first needs it.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { removeLeftoverTempFiles } from "./core/storage/leftover-temp-files";
import { registerCommands } from "./host/vscode/commands";
import { VscodeSecretStore } from "./host/vscode/secret-store";
import { SessionHolder } from "./host/vscode/session-holder";
import { VscodeSettingsStore } from "./host/vscode/settings-store";
import { openWorkspaceFile, VscodeHost } from "./host/vscode/vscode-host";
import { CHAT_VIEW_ID, ChatViewProvider } from "./host/vscode/webview-provider";

let sessions: SessionHolder | undefined;

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
  const holder = new SessionHolder(async () => {
    const [{ WebviewSession }] = await Promise.all([
      import("./core/controller/webview-session"),
      vscode.workspace.fs.createDirectory(context.globalStorageUri),
    ]);
    log.info("Chat session started.");
    return new WebviewSession({
      post: (message) => view.post(message),
      host,
      settings,
      secrets,
      storageRoot: context.globalStorageUri.fsPath,
      openFile: openWorkspaceFile,
      ripgrepPath: bundledRipgrep(),
    });
  });
  const view = new ChatViewProvider(context.extensionUri, holder, log, context.workspaceState);
  sessions = holder;

  // deactivate() disposes the session (ending its task) before VS Code disposes these.
  context.subscriptions.push(
    log,
    settings,
    host,
    view,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }),
    ...registerCommands({ view, sessions: holder, settings, secrets, log }),
    { dispose: () => void holder.dispose() },
  );
  return { host, secrets, settings };
}

/** VS Code ships ripgrep; search_files prefers it to one on PATH. */
function bundledRipgrep(): string | undefined {
  const name = process.platform === "win32" ? "rg.exe" : "rg";
  return ["node_modules", "node_modules.asar.unpacked"]
    .map((folder) => path.join(vscode.env.appRoot, folder, "@vscode", "ripgrep", "bin", name))
    .find((candidate) => existsSync(candidate));
}

export async function deactivate(): Promise<void> {
  const holder = sessions;
  sessions = undefined;
  await holder?.dispose();
}
