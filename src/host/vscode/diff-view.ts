/**
 * DiffViewHost inside VS Code: opens each proposed edit in the editor's diff view (see
 * diff-session.ts) and serves the read-only original side through a content provider.
 */
import * as vscode from "vscode";
import type { DiffSession, DiffViewHost } from "../bridge";
import { EditorDiffSession, type DiffSessionOptions } from "./diff-session";
import { Disposable } from "./dispose";
import { ORIGINAL_SCHEME, OriginalContentProvider } from "./original-content";

const DEFAULTS: DiffSessionOptions = { updateIntervalMs: 100, diagnosticsSettleMs: 1500 };

export class VscodeDiffView extends Disposable implements DiffViewHost {
  private readonly originals = new OriginalContentProvider();
  private readonly options: DiffSessionOptions;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    options: Partial<DiffSessionOptions> = {},
  ) {
    super();
    this.options = { ...DEFAULTS, ...options };
    this._register(vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this.originals));
  }

  /** `original` is what the tool read; the session reads the file itself, so the view shows what is really there. */
  async open(absolutePath: string, _original: string | undefined): Promise<DiffSession> {
    if (this.isDisposed) throw new Error("Tandem's diff view is closed (the extension is shutting down).");
    return EditorDiffSession.open(absolutePath, this.originals, this.log, this.options);
  }
}
