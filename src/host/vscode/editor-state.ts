/**
 * `EditorHost` inside VS Code: the files visible in editors (the active one first), the files
 * open in tabs, and the workspace's errors and warnings. Read when asked, so nothing is
 * subscribed and nothing needs disposing; the lists themselves are made by editor-lists.ts.
 */
import * as vscode from "vscode";
import type { EditorHost, WorkspaceProblem } from "../bridge";
import { activeFirst, filePaths, problemsOf, type UriLike } from "./editor-lists";

export class VscodeEditorState implements EditorHost {
  visibleFiles(): readonly string[] {
    return activeFirst(
      vscode.window.activeTextEditor?.document.uri,
      vscode.window.visibleTextEditors.map((editor) => editor.document.uri),
    );
  }

  openTabs(): readonly string[] {
    return filePaths(vscode.window.tabGroups.all.flatMap((group) => group.tabs.flatMap(tabUri)));
  }

  problems(): readonly WorkspaceProblem[] {
    return problemsOf(vscode.languages.getDiagnostics(), { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning });
  }
}

/** The file a tab shows: a text or notebook editor's, or a diff's changed side. */
function tabUri(tab: vscode.Tab): UriLike[] {
  const input = tab.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputNotebook || input instanceof vscode.TabInputCustom) return [input.uri];
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return [input.modified];
  return [];
}
