/**
 * One proposed edit shown in VS Code's diff editor: the file as it is (read-only, left) against
 * Tandem's proposal (right), an editable in-memory file (proposal-files.ts) that receives the
 * text as it streams. The real file is not touched until save(): the person may edit the
 * proposal, save it, let auto save run, reload or crash the window, and the disk still holds
 * exactly what it held. save() writes the proposal (with the person's edits) to the real file and
 * reports those edits and the errors that appeared; revert() only closes the view.
 */
import { mkdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { writeFileAtomic } from "../../core/storage/atomic-write";
import { realLocation } from "../../core/util/real-paths";
import { Throttle } from "../../core/util/throttle";
import type { DiffSession } from "../bridge";
import { errorText } from "../../core/util/error-text";
import { closeTabs, loadedDocument, replaceText, tabsOf } from "./diff-files";
import { unifiedDiff } from "./line-diff";
import type { OriginalContentProvider } from "./original-content";
import { newProblems, type Problem } from "./problems";
import type { ProposalFileSystem } from "./proposal-files";

export interface DiffSessionOptions {
  /** Streamed updates reach the editor at most this often. */
  readonly updateIntervalMs: number;
  /** After saving, how long to wait at most for the language servers' new diagnostics. */
  readonly diagnosticsSettleMs: number;
}

/** What every session of one diff view shares. */
export interface DiffSessionServices {
  readonly originals: OriginalContentProvider;
  readonly proposals: ProposalFileSystem;
  readonly log: vscode.LogOutputChannel;
  readonly options: DiffSessionOptions;
}

interface OpenFile {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly proposalUri: vscode.Uri;
  /** The file starts with a UTF-8 byte order mark, which the written file keeps. */
  readonly hasBom: boolean;
  readonly problemsBefore: readonly Problem[];
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export class EditorDiffSession implements DiffSession {
  private proposed = "";
  private finished = false;
  private updateError: unknown;
  private readonly throttle: Throttle;
  private readonly log: vscode.LogOutputChannel;

  private constructor(
    private readonly file: OpenFile,
    private readonly services: DiffSessionServices,
  ) {
    this.log = services.log;
    this.throttle = new Throttle(services.options.updateIntervalMs, (error) => {
      this.updateError ??= error;
      this.log.error(`Showing the proposed edit of ${file.uri.fsPath} failed: ${errorText(error)}`);
    });
  }

  static async open(absolutePath: string, services: DiffSessionServices): Promise<EditorDiffSession> {
    const uri = vscode.Uri.file(absolutePath);
    const bytes = await readExisting(absolutePath);
    let originalText = "";
    if (bytes !== undefined) {
      const document = await vscode.workspace.openTextDocument(uri);
      if (document.isDirty) {
        // The proposal is based on the file as the person sees it: their unsaved typing goes to disk first.
        services.log.info(`Saving unsaved changes in ${absolutePath} before showing Tandem's edit.`);
        if (!(await document.save())) throw new Error(`${absolutePath} has unsaved changes that could not be saved; save or revert them, then try again.`);
      }
      originalText = document.getText();
    }
    const file: OpenFile = {
      uri,
      originalUri: services.originals.add(absolutePath, originalText),
      proposalUri: services.proposals.create(absolutePath, originalText),
      hasBom: bytes !== undefined && bytes.subarray(0, 3).equals(UTF8_BOM),
      problemsBefore: errorsOf(uri),
    };
    const session = new EditorDiffSession(file, services);
    session.proposed = originalText;
    try {
      const title = `${path.basename(absolutePath)}: ${bytes === undefined ? "New file" : "Original"} ↔ Tandem's edit (editable)`;
      await vscode.commands.executeCommand("vscode.diff", file.originalUri, file.proposalUri, title, { preview: false, preserveFocus: true });
    } catch (error) {
      await session.revert();
      throw error;
    }
    return session;
  }

  async update(proposed: string, final: boolean): Promise<void> {
    this.assertOpen();
    this.proposed = proposed;
    this.throttle.push(() => this.show(proposed, !final));
    if (!final) return;
    await this.throttle.flush();
    if (this.updateError !== undefined) throw new Error(`Could not show the edit in the editor: ${errorText(this.updateError)}`);
  }

  async save(): Promise<{ content: string; personEdits?: string; newProblems: string[] }> {
    this.assertOpen();
    await this.throttle.flush();
    if (this.updateError !== undefined) throw new Error(`The editor does not hold the proposed edit: ${errorText(this.updateError)}`);
    const { uri } = this.file;
    if (loadedDocument(uri)?.isDirty) {
      // Writing the file now would put the disk and that editor at odds, and lose one of them.
      throw new Error(`${uri.fsPath} has unsaved changes in another editor; save or revert them, then try the edit again.`);
    }
    // The proposal as the editor holds it, with the person's edits and the file's line endings.
    const content = (await this.proposalDocument()).getText();
    // The core opens the view on the real path it checked: leading elsewhere now means a link was made since.
    if (path.relative(realLocation(uri.fsPath), uri.fsPath) !== "") {
      throw new Error(`${uri.fsPath} now leads somewhere else through a symbolic link, so the edit was not saved.`);
    }
    await mkdir(path.dirname(uri.fsPath), { recursive: true });
    await writeFileAtomic(uri.fsPath, this.file.hasBom ? Buffer.concat([UTF8_BOM, Buffer.from(content, "utf8")]) : content);
    this.finished = true;
    await this.close();
    // The saved file in an ordinary editor: the person sees the result, and language servers check it.
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true });
    await this.diagnosticsSettled();
    const label = vscode.workspace.asRelativePath(uri, false);
    const personEdits = unifiedDiff(this.proposed, content, { oldLabel: `${label} (Tandem's proposal)`, newLabel: `${label} (as saved)` });
    const problems = newProblems(this.file.problemsBefore, errorsOf(uri));
    return personEdits === undefined ? { content, newProblems: problems } : { content, personEdits, newProblems: problems };
  }

  /** The real file was never touched: closing the view is all there is to undo. */
  async revert(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.throttle.cancel();
    await this.throttle.flush();
    await this.close();
  }

  private assertOpen(): void {
    if (this.finished) throw new Error(`The diff view of ${this.file.uri.fsPath} is already closed.`);
  }

  /** The proposal's document (reopened from memory if the person closed its editor). */
  private async proposalDocument(): Promise<vscode.TextDocument> {
    return vscode.workspace.openTextDocument(this.file.proposalUri);
  }

  private async show(proposed: string, reveal: boolean): Promise<void> {
    const document = await this.proposalDocument();
    const changedUpTo = await replaceText(document, proposed);
    if (!reveal || changedUpTo === undefined) return;
    // Follow the stream: keep the line being written in view.
    const line = document.positionAt(changedUpTo).line;
    const target = this.file.proposalUri.toString();
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== target) continue;
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  /** Waits for the first diagnostics report on the file, or the settle time, whichever comes first. */
  private diagnosticsSettled(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const target = this.file.uri.toString();
      const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => uri.toString() === target)) done();
      });
      const timer = setTimeout(done, this.services.options.diagnosticsSettleMs);
    });
  }

  /** Closes the view and forgets the proposal. */
  private async close(): Promise<void> {
    const { proposalUri, originalUri } = this.file;
    await closeProposal(proposalUri, this.log);
    this.services.originals.remove(originalUri);
    this.services.proposals.remove(proposalUri);
  }
}

/**
 * Closes the diff tabs of a proposal. Unsaved typing in it is saved first, into the proposal's
 * memory, so VS Code does not ask the person whether to save.
 */
export async function closeProposal(proposalUri: vscode.Uri, log: vscode.LogOutputChannel): Promise<void> {
  const document = loadedDocument(proposalUri);
  if (document?.isDirty && !(await document.save())) log.warn(`Could not keep the typing in ${proposalUri.path}'s proposal before closing it.`);
  await closeTabs(tabsOf(proposalUri), `the diff view of ${proposalUri.path}`, log);
}

function errorsOf(uri: vscode.Uri): Problem[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => ({ line: d.range.start.line, message: d.message, source: d.source, code: codeText(d.code) }));
}

function codeText(code: vscode.Diagnostic["code"]): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === "object" ? String(code.value) : String(code);
}

/** The file's bytes, or undefined when there is no file yet. */
async function readExisting(absolutePath: string): Promise<Buffer | undefined> {
  try {
    return await readFile(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "EISDIR") throw new Error(`${absolutePath} is a folder, not a file.`);
    throw error;
  }
}
