/**
 * DiffViewHost.showChanges inside VS Code: the files as a checkpoint holds them (read-only, served
 * by checkpoint-content.ts) against the real files now, in VS Code's multi-file diff editor
 * (`vscode.changes`), or its plain diff editor for a single file. Files that are not text are named
 * in a notification instead.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { CheckpointChange } from "../../shared/checkpoints";
import { Disposable } from "../../core/util/disposable";
import { CheckpointContentProvider } from "./checkpoint-content";
import { binaryNote, planCheckpointDiff, type CheckpointDiffEntry } from "./checkpoint-sides";

/** One resource of `vscode.changes`: the file it is about, then the left and right sides. */
type ChangeResource = [resource: vscode.Uri, left: vscode.Uri, right: vscode.Uri];

export class CheckpointDiff extends Disposable {
  private readonly contents: CheckpointContentProvider;

  constructor(
    private readonly workspaceRoot: () => string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.contents = this._register(new CheckpointContentProvider());
  }

  async show(title: string, changes: readonly CheckpointChange[]): Promise<void> {
    const { entries, binary } = planCheckpointDiff(changes);
    const note = binaryNote(binary, entries.length);
    if (note) {
      this.log.info(note);
      void vscode.window.showInformationMessage(`Tandem: ${note}`);
    }
    const root = this.workspaceRoot();
    const [first, ...rest] = entries;
    if (!first) return;
    if (rest.length === 0) {
      const [, left, right] = this.resource(root, first);
      await vscode.commands.executeCommand("vscode.diff", left, right, `${first.path} (${title})`);
      return;
    }
    await vscode.commands.executeCommand("vscode.changes", title, entries.map((entry) => this.resource(root, entry)));
  }

  /** Both sides keep the file's path (only the scheme differs), so the editor pairs them and sees no rename. */
  private resource(root: string, entry: CheckpointDiffEntry): ChangeResource {
    const absolute = entry.absolute ?? path.join(root, ...entry.path.split("/"));
    const file = vscode.Uri.file(absolute);
    const left = this.contents.add(absolute, entry.before);
    return [file, left, entry.right === "deleted" ? this.contents.add(absolute, "") : file];
  }
}
