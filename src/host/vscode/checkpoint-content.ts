/**
 * The checkpoint side of Tandem's checkpoint diffs: files as a checkpoint holds them (and the empty
 * side of a file added or deleted since), served read-only as virtual documents
 * (`tandem-checkpoint:`). The path stays in the URI so the editor picks the language and pairs the
 * sides of the multi-file diff; the query holds this host's id. A text is held until its document
 * closes (its diff tab was closed or replaced), so compares do not pile up in memory.
 */
import * as vscode from "vscode";
import { Disposable } from "../../core/util/disposable";
import { HostScopedIds } from "./host-scoped-ids";

export const CHECKPOINT_SCHEME = "tandem-checkpoint";

export class CheckpointContentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly ids = new HostScopedIds();

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, this));
    this._register(
      vscode.workspace.onDidCloseTextDocument(({ uri }) => {
        if (uri.scheme === CHECKPOINT_SCHEME) this.texts.delete(uri.query);
      }),
    );
  }

  add(absolutePath: string, text: string): vscode.Uri {
    const id = this.ids.next();
    this.texts.set(id, text);
    return vscode.Uri.file(absolutePath).with({ scheme: CHECKPOINT_SCHEME, query: id });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const text = this.texts.get(uri.query);
    if (text === undefined) throw new Error(`Tandem no longer holds the checkpoint's text of ${uri.path}: compare again from the chat.`);
    return text;
  }

  override dispose(): void {
    this.texts.clear();
    super.dispose();
  }
}
