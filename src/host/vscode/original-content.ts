/**
 * The left side of Tandem's diff views: a file's text before the edit, served as a read-only
 * virtual document (`tandem-original:`). Each view gets its own URI (this host's id and a counter
 * in the query), so VS Code never shows a cached text from an earlier edit of the same file, nor
 * mixes this host's views with tabs an earlier host left behind.
 */
import * as vscode from "vscode";
import { HostScopedIds } from "./host-scoped-ids";

export const ORIGINAL_SCHEME = "tandem-original";

export class OriginalContentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly ids = new HostScopedIds();

  /** The path stays in the URI so the editor picks the language (and title) from the file name. */
  add(absolutePath: string, text: string): vscode.Uri {
    const id = this.ids.next();
    this.texts.set(id, text);
    return vscode.Uri.file(absolutePath).with({ scheme: ORIGINAL_SCHEME, query: id });
  }

  remove(uri: vscode.Uri): void {
    this.texts.delete(uri.query);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const text = this.texts.get(uri.query);
    if (text === undefined) throw new Error(`Tandem no longer holds the original text of ${uri.path} (its diff view was closed).`);
    return text;
  }
}
