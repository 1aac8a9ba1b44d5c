/**
 * The HostBridge inside VS Code: the workspace folder, notifications, Tandem's terminals (and
 * the person's, for their activity), the diff view and the editor's files and problems. Owns the terminal host and the diff view (disposed with it).
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { EditorHost, HostBridge, TerminalHost, WindowHost, WorkspaceHost } from "../bridge";
import { NodeTerminal } from "../node/node-terminal";
import { VscodeDiffView } from "./diff-view";
import { VscodeEditorState } from "./editor-state";
import { Disposable } from "../../core/util/disposable";
import { VscodeTerminalHost } from "./terminal-manager";
import { errorText } from "../../core/util/error-text";

export const NO_FOLDER_MESSAGE = "Tandem works in a folder: open a folder (File › Open Folder…) and try again.";

/** The first workspace folder, read when needed (the person may open one later). */
class FolderWorkspace implements WorkspaceHost {
  get root(): string {
    return workspaceRoot();
  }
}

/** The folder tasks work in; throws with a clear message when there is none. */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(NO_FOLDER_MESSAGE);
  if (folder.uri.scheme !== "file") {
    throw new Error(`Tandem works on folders on this machine's disk; ${folder.uri.toString()} is a ${folder.uri.scheme}: folder.`);
  }
  return folder.uri.fsPath;
}

export function hasWorkspaceFolder(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
}

class NotificationWindow implements WindowHost {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  notify(level: "info" | "warning" | "error", message: string): void {
    const text = `Tandem: ${message}`;
    if (level === "error") {
      this.log.error(message);
      void vscode.window.showErrorMessage(text);
    } else if (level === "warning") {
      this.log.warn(message);
      void vscode.window.showWarningMessage(text);
    } else {
      this.log.info(message);
      void vscode.window.showInformationMessage(text);
    }
  }
}

export class VscodeHost extends Disposable implements HostBridge {
  readonly workspace: WorkspaceHost = new FolderWorkspace();
  readonly window: WindowHost;
  readonly terminal: TerminalHost;
  readonly diffView: VscodeDiffView;
  readonly editor: EditorHost = new VscodeEditorState();
  /** search_files runs the ripgrep VS Code ships, ahead of one on PATH. */
  readonly ripgrep = bundledRipgrep();

  constructor(log: vscode.LogOutputChannel) {
    super();
    this.window = new NotificationWindow(log);
    this.terminal = this._register(new VscodeTerminalHost(new NodeTerminal(), log));
    this.diffView = this._register(new VscodeDiffView(log, workspaceRoot));
  }
}

/** VS Code's own ripgrep, where this version keeps it. */
function bundledRipgrep(): string | undefined {
  const name = process.platform === "win32" ? "rg.exe" : "rg";
  return ["node_modules", "node_modules.asar.unpacked"]
    .map((folder) => path.join(vscode.env.appRoot, folder, "@vscode", "ripgrep", "bin", name))
    .find((candidate) => existsSync(candidate));
}

/** Opens a file of the workspace (a path relative to its folder, or absolute) in an editor. */
export async function openWorkspaceFile(filePath: string): Promise<void> {
  if (typeof filePath !== "string" || !filePath.trim()) throw new Error("No file to open was given.");
  const absolute = path.isAbsolute(filePath) ? filePath : path.join(workspaceRoot(), filePath);
  try {
    await vscode.window.showTextDocument(vscode.Uri.file(absolute), { preview: true });
  } catch (error) {
    throw new Error(`Could not open ${filePath}: ${errorText(error)}`, { cause: error });
  }
}
