/**
 * The HostBridge inside VS Code: the workspace folders, notifications, Tandem's terminals (and
 * the person's, for their activity), the diff view and the editor's files and problems. Owns the terminal host and the diff view (disposed with it).
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { EditorHost, HostBridge, TerminalHost, WindowHost, WorkspaceHost, WorkspaceRoot } from "../bridge";
import { NodeTerminal } from "../node/node-terminal";
import { VscodeDiffView } from "./diff-view";
import { VscodeEditorState } from "./editor-state";
import { Disposable } from "../../core/util/disposable";
import { VscodeTerminalHost } from "./terminal-manager";
import { errorText } from "../../core/util/error-text";
import { locate } from "../../core/files/paths";
import { nameRoots, WorkspaceRoots } from "../../core/util/workspace-roots";

export const NO_FOLDER_MESSAGE = "Tandem works in a folder: open a folder (File › Open Folder…) and try again.";

/**
 * Every workspace folder on this machine's disk, named as VS Code names it, read when needed (the
 * person may open one later) and read again once the folders change: the next task sees the new set.
 */
class FolderWorkspace extends Disposable implements WorkspaceHost {
  private known: readonly WorkspaceRoot[] | undefined;

  constructor() {
    super();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => (this.known = undefined)));
  }

  get roots(): readonly WorkspaceRoot[] {
    return (this.known ??= workspaceRoots());
  }
}

/** The folders tasks work in, the first VS Code lists first; throws with a clear message when there is none. */
function workspaceRoots(): WorkspaceRoot[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const first = folders[0];
  if (!first) throw new Error(NO_FOLDER_MESSAGE);
  const onDisk = folders.filter((folder) => folder.uri.scheme === "file");
  if (onDisk.length === 0) throw new Error(`Tandem works on folders on this machine's disk; ${first.uri.toString()} is a ${first.uri.scheme}: folder.`);
  return nameRoots(onDisk.map((folder) => ({ path: folder.uri.fsPath, name: folder.name })));
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
  readonly workspace: FolderWorkspace;
  readonly window: WindowHost;
  readonly terminal: TerminalHost;
  readonly diffView: VscodeDiffView;
  readonly editor: EditorHost = new VscodeEditorState();
  /** search_files runs the ripgrep VS Code ships, ahead of one on PATH. */
  readonly ripgrep = bundledRipgrep();

  constructor(log: vscode.LogOutputChannel) {
    super();
    const workspace = (this.workspace = this._register(new FolderWorkspace()));
    this.window = new NotificationWindow(log);
    this.terminal = this._register(new VscodeTerminalHost(new NodeTerminal(), log));
    this.diffView = this._register(new VscodeDiffView(log, () => WorkspaceRoots.of(workspace.roots).primary.path));
  }
}

/** VS Code's own ripgrep, where this version keeps it. */
function bundledRipgrep(): string | undefined {
  const name = process.platform === "win32" ? "rg.exe" : "rg";
  return ["node_modules", "node_modules.asar.unpacked"]
    .map((folder) => path.join(vscode.env.appRoot, folder, "@vscode", "ripgrep", "bin", name))
    .find((candidate) => existsSync(candidate));
}

/** Opens a file of the workspace (as the model writes it: relative, `folder/…`, or absolute) in an editor. */
export async function openWorkspaceFile(filePath: string): Promise<void> {
  if (typeof filePath !== "string" || !filePath.trim()) throw new Error("No file to open was given.");
  const absolute = locate(WorkspaceRoots.of(workspaceRoots()), filePath);
  try {
    await vscode.window.showTextDocument(vscode.Uri.file(absolute), { preview: true });
  } catch (error) {
    throw new Error(`Could not open ${filePath}: ${errorText(error)}`, { cause: error });
  }
}
