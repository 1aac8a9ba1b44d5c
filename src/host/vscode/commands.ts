/**
 * Tandem's commands (declared in package.json). Each one reveals the chat panel where it acts
 * on it, and reports its own failure to the person: a command has no other way to show one.
 */
import * as vscode from "vscode";
import type { WebviewSession } from "../../core/controller/webview-session";
import type { PanelView } from "../../shared/protocol";
import { PROVIDERS, takesField } from "../../shared/providers";
import type { VscodeSecretStore } from "./secret-store";
import { formatSelectionForChat, selectedLineRange } from "./selection-text";
import type { SessionHolder } from "./session-holder";
import type { VscodeSettingsStore } from "./settings-store";
import { hasWorkspaceFolder, NO_FOLDER_MESSAGE } from "./vscode-host";
import type { ChatViewProvider } from "./webview-provider";
import type { HooksWorkspaceTrust } from "./hooks-trust";
import type { SkillsWorkspaceTrust } from "./skills-trust";
import { errorText } from "../../core/util/error-text";

export interface CommandDeps {
  readonly view: ChatViewProvider;
  readonly sessions: SessionHolder;
  readonly settings: VscodeSettingsStore;
  readonly secrets: VscodeSecretStore;
  readonly log: vscode.LogOutputChannel;
  readonly hooksTrust?: HooksWorkspaceTrust;
  readonly skillsTrust?: SkillsWorkspaceTrust;
}


export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const handlers: Readonly<Record<string, () => Promise<void>>> = {
    "tandem.newTask": () => newTask(deps),
    "tandem.openSettings": async () => void (await showPanelView(deps, "settings")),
    "tandem.showHistory": async () => void (await showPanelView(deps, "history")),
    "tandem.showMcp": async () => void (await showPanelView(deps, "mcp")),
    "tandem.focusChatInput": async () => (await showPanelView(deps, "chat")).focusInput(),
    "tandem.addSelectionToChat": () => addSelectionToChat(deps),
    "tandem.cancelTask": () => cancelTask(deps),
    "tandem.setApiKey": () => setApiKey(deps),
    "tandem.trustWorkspaceHooks": () => trustWorkspaceHooks(deps),
    "tandem.trustWorkspaceSkills": () => trustWorkspaceSkills(deps),
    "tandem.toggleMode": async () => (await showPanelView(deps, "chat")).toggleMode(),
  };
  return Object.entries(handlers).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await handler();
      } catch (error) {
        const text = errorText(error);
        deps.log.error(`${id} failed: ${text}`);
        void vscode.window.showErrorMessage(`Tandem: ${text}`);
      }
    }),
  );
}

/** The next hook run asks again whether this workspace's hooks may run, even after "Keep them off". */
async function trustWorkspaceHooks(deps: CommandDeps): Promise<void> {
  deps.hooksTrust?.willAskAgain();
  (await deps.sessions.get()).controller.hooks.askAgain();
  void vscode.window.showInformationMessage("Tandem: the next time a hook point comes, you will be asked whether this workspace's hooks may run.");
}

/** The next task asks again whether this workspace's skills may be offered, even after "Keep them off". */
async function trustWorkspaceSkills(deps: CommandDeps): Promise<void> {
  deps.skillsTrust?.willAskAgain();
  (await deps.sessions.get()).controller.skillsTrust.askAgain();
  void vscode.window.showInformationMessage("Tandem: the next task will ask whether this workspace's skills may be offered.");
}

async function showPanelView(deps: CommandDeps, view: PanelView): Promise<WebviewSession> {
  await deps.view.reveal();
  const session = await deps.sessions.get();
  session.showView(view);
  return session;
}

async function newTask(deps: CommandDeps): Promise<void> {
  if (!hasWorkspaceFolder()) {
    void vscode.window.showErrorMessage(NO_FOLDER_MESSAGE);
    return;
  }
  const text = await vscode.window.showInputBox({
    title: "Tandem: New Task",
    prompt: "What should Tandem do? It asks before it edits files or runs commands (unless auto-approved).",
    placeHolder: "e.g. Add a --verbose flag to the CLI and test it",
    ignoreFocusOut: true,
  });
  if (!text?.trim()) return; // dismissed or left empty: nothing to start
  const session = await showPanelView(deps, "chat");
  await session.newTask(text.trim());
}

async function addSelectionToChat(deps: CommandDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage("Tandem: select some code in an editor first.");
    return;
  }
  const { document, selection } = editor;
  const lines = selectedLineRange(selection.start, selection.end);
  const text = formatSelectionForChat({
    path: document.uri.scheme === "file" ? vscode.workspace.asRelativePath(document.uri, false) : document.fileName,
    ...lines,
    languageId: document.languageId,
    text: document.getText(selection),
  });
  const session = await showPanelView(deps, "chat");
  session.insertText(text);
  session.focusInput();
}

async function cancelTask(deps: CommandDeps): Promise<void> {
  const session = deps.sessions.current();
  if (!session) {
    void vscode.window.showInformationMessage("Tandem: no task is running.");
    return;
  }
  await (await session).cancelTask();
}

async function setApiKey(deps: CommandDeps): Promise<void> {
  const provider = deps.settings.getApiSettings().provider;
  if (!takesField(provider, "apiKey")) {
    void vscode.window.showInformationMessage(`Tandem: ${PROVIDERS[provider].name} takes no API key (see its fields in Tandem's settings).`);
    return;
  }
  const apiKey = await vscode.window.showInputBox({
    title: `Tandem: API key for ${PROVIDERS[provider].name}`,
    prompt: "Kept in VS Code's secret storage, never in settings. Leave empty to remove the stored key. (The provider is the tandem.apiProvider setting.)",
    password: true,
    ignoreFocusOut: true,
  });
  if (apiKey === undefined) return; // dismissed
  await deps.secrets.setApiKey(provider, apiKey);
  // An open panel shows whether a key is stored.
  const session = deps.sessions.current();
  if (session) await (await session).refreshSettings();
  void vscode.window.showInformationMessage(`Tandem: the API key for ${PROVIDERS[provider].name} was ${apiKey.trim() ? "saved" : "removed"}.`);
}
