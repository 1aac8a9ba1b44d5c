/**
 * Editor chores of Tandem's diff views, shared by the live session (diff-session.ts) and the
 * clean-up of views an earlier host left open (leftover-proposals.ts): replace a document's text,
 * find and close the diff tabs of a proposal.
 */
import * as vscode from "vscode";
import { minimalReplacement } from "./streamed-edit";

/** Replaces only what differs; returns the offset where the new text ends (undefined: no change). */
export async function replaceText(document: vscode.TextDocument, text: string): Promise<number | undefined> {
  const eol = document.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
  const wanted = text.replace(/\r?\n/g, eol);
  const change = minimalReplacement(document.getText(), wanted);
  if (!change) return undefined;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)), change.text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit of ${document.uri.fsPath}.`);
  return change.start + change.text.length;
}

/** The document if VS Code holds it now, without loading it. */
export function loadedDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const target = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === target);
}

/** The diff tabs whose right side is `modified`. */
export function tabsOf(modified: vscode.Uri): vscode.Tab[] {
  const target = modified.toString();
  return allTabs().filter(({ input }) => input instanceof vscode.TabInputTextDiff && input.modified.toString() === target);
}

/** The right sides of every diff tab whose right side has the URI scheme `scheme`. */
export function diffSidesWithScheme(scheme: string): vscode.Uri[] {
  const sides = new Map<string, vscode.Uri>();
  for (const { input } of allTabs()) {
    if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === scheme) sides.set(input.modified.toString(), input.modified);
  }
  return [...sides.values()];
}

/** Closes the tabs; their documents must be clean, or VS Code would ask the person to save. */
export async function closeTabs(tabs: vscode.Tab[], what: string, log: vscode.LogOutputChannel): Promise<void> {
  if (tabs.length > 0 && !(await vscode.window.tabGroups.close(tabs, true))) log.warn(`${what} did not close.`);
}


function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}
