/**
 * History's export in VS Code: the save dialog, opened in the workspace folder with the name the
 * core offers, then the file written through VS Code's file system (so a remote workspace gets it
 * where the person looks). The Markdown itself is the core's (core/history/task-markdown.ts).
 */
import * as path from "node:path";
import * as vscode from "vscode";

/** Saves `content` where the person picks: the path, or undefined when they cancelled the dialog. */
export async function saveWithDialog(fileName: string, content: string, folder: string | undefined): Promise<string | undefined> {
  const target = await vscode.window.showSaveDialog({
    title: "Export task as Markdown",
    saveLabel: "Export",
    filters: { Markdown: ["md"] },
    ...(folder ? { defaultUri: vscode.Uri.file(path.join(folder, fileName)) } : {}),
  });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  return target.scheme === "file" ? target.fsPath : target.toString();
}
