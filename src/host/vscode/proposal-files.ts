/**
 * The right side of Tandem's diff views: each proposal is an editable file kept in memory under
 * the `tandem-proposal:` scheme, never the real file. Nothing reaches the disk before approval,
 * whatever the person's settings: auto save (on by default in VS Code for the web) saves a
 * proposal into this memory, and a crash or reload leaves no half-approved file behind.
 * Saving a proposal with Ctrl+S keeps the person's edits here until Tandem writes the real file.
 */
import * as vscode from "vscode";
import { HostScopedIds } from "./host-scoped-ids";

export const PROPOSAL_SCHEME = "tandem-proposal";

interface ProposalFile {
  data: Uint8Array;
  readonly ctime: number;
  mtime: number;
}

export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, ProposalFile>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Keeps this host's URIs apart from those an earlier host left in restored tabs. */
  private readonly ids = new HostScopedIds();

  /** A new proposal of the file at `absolutePath`, holding `text`; the path stays so the editor picks the language. */
  create(absolutePath: string, text: string): vscode.Uri {
    const uri = vscode.Uri.file(absolutePath).with({ scheme: PROPOSAL_SCHEME, query: this.ids.next() });
    const now = Date.now();
    this.files.set(uri.toString(), { data: new TextEncoder().encode(text), ctime: now, mtime: now });
    return uri;
  }

  /** True for a proposal this host made; false for one an earlier host left in a restored tab. */
  isOwn(uri: vscode.Uri): boolean {
    return uri.scheme === PROPOSAL_SCHEME && this.ids.isOwn(uri.query);
  }

  /** Forgets a proposal once its view is closed. */
  remove(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.get(uri);
    return { type: vscode.FileType.File, ctime: file.ctime, mtime: file.mtime, size: file.data.byteLength };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.get(uri).data;
  }

  /**
   * Saves from the editor. A proposal this host does not know is accepted too: that is an unsaved
   * proposal an earlier host left, which must be saved here to be closed without a prompt.
   */
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const key = uri.toString();
    const now = Date.now();
    const file = this.files.get(key);
    if (file) {
      file.data = content;
      file.mtime = now;
    } else {
      this.files.set(key, { data: content, ctime: now, mtime: now });
    }
    this.changed.fire([{ type: file ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.get(uri);
    this.files.delete(uri.toString());
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    // Changes are reported through onDidChangeFile for every proposal; nothing to set up per watch.
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  /** Folders are implicit; VS Code asks for them before saving a proposal it found no file for. */
  createDirectory(): void {}

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${uri.path}: a proposal of Tandem's cannot be renamed; approve it to write the file.`);
  }

  dispose(): void {
    this.changed.dispose();
    this.files.clear();
  }

  private get(uri: vscode.Uri): ProposalFile {
    const file = this.files.get(uri.toString());
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }
}
