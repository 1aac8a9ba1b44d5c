import * as vscode from "vscode";

/**
 * Composition root. For now it only registers the view and the New Task command so the
 * manifest's contributions resolve; the real host (chat panel, Controller) arrives with the
 * VS Code host issue.
 */
export function activate(context: vscode.ExtensionContext): void {
  const placeholder: vscode.WebviewViewProvider = {
    resolveWebviewView(view) {
      view.webview.html = `<!DOCTYPE html><html><body><p>Tandem is being built. The chat panel arrives soon.</p></body></html>`;
    },
  };
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider("tandem.chatView", placeholder),
    vscode.commands.registerCommand("tandem.newTask", async () => {
      await vscode.commands.executeCommand("tandem.chatView.focus");
    }),
  );
}

export function deactivate(): void {}
