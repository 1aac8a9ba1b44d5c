/**
 * DiffViewHost inside VS Code: opens each proposed edit in the editor's diff view (see
 * diff-session.ts), with the read-only original served by a content provider and the editable
 * proposal by an in-memory file system, and first closes the views an earlier host left open.
 * A checkpoint's changes go to the multi-file diff editor (checkpoint-diff.ts).
 */
import * as vscode from "vscode";
import type { CheckpointChange } from "../../shared/checkpoints";
import type { DiffSession, DiffViewHost } from "../bridge";
import { CheckpointDiff } from "./checkpoint-diff";
import { EditorDiffSession, type DiffSessionOptions, type DiffSessionServices } from "./diff-session";
import { Disposable } from "../../core/util/disposable";
import { closeLeftoverProposals } from "./leftover-proposals";
import { ORIGINAL_SCHEME, OriginalContentProvider } from "./original-content";
import { PROPOSAL_SCHEME, ProposalFileSystem } from "./proposal-files";

const DEFAULTS: DiffSessionOptions = { updateIntervalMs: 100, diagnosticsSettleMs: 1500 };

export class VscodeDiffView extends Disposable implements DiffViewHost {
  private readonly services: DiffSessionServices;
  private readonly checkpoints: CheckpointDiff;
  private cleanup: Promise<void>;

  /** `workspaceRoot`: the folder checkpoint paths are relative to, read when a diff opens. */
  constructor(log: vscode.LogOutputChannel, workspaceRoot: () => string, options: Partial<DiffSessionOptions> = {}) {
    super();
    this.checkpoints = this._register(new CheckpointDiff(workspaceRoot, log));
    const originals = new OriginalContentProvider();
    const proposals = this._register(new ProposalFileSystem());
    this.services = { originals, proposals, log, options: { ...DEFAULTS, ...options } };
    this._register(vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, originals));
    this._register(vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, proposals, { isCaseSensitive: true }));
    this.cleanup = closeLeftoverProposals(proposals, log);
    // The workbench may restore an earlier host's diff tab after this host has started.
    this._register(
      vscode.window.tabGroups.onDidChangeTabs(({ opened }) => {
        const foreign = opened.some(({ input }) => input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME && !proposals.isOwn(input.modified));
        if (foreign) void this.closeLeftoverProposals();
      }),
    );
  }

  /** `original` is what the tool read; the session reads the file itself, so the view shows what is really there. */
  async open(absolutePath: string, _original: string | undefined): Promise<DiffSession> {
    if (this.isDisposed) throw new Error("Tandem's diff view is closed (the extension is shutting down).");
    await this.cleanup;
    return EditorDiffSession.open(absolutePath, this.services);
  }

  async showChanges(title: string, changes: readonly CheckpointChange[]): Promise<void> {
    if (this.isDisposed) throw new Error("Tandem's diff view is closed (the extension is shutting down).");
    await this.checkpoints.show(title, changes);
  }

  /** Closes the diff views of proposals this host did not make; one run after another. */
  private closeLeftoverProposals(): Promise<void> {
    this.cleanup = this.cleanup.then(() => closeLeftoverProposals(this.services.proposals, this.services.log));
    return this.cleanup;
  }
}
