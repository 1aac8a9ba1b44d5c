/**
 * One proposed edit shown in VS Code's diff editor: the original text (read-only, left) against
 * the real file (right), whose document receives the proposal as it streams. The person may edit
 * the right side before approving. save() writes through the editor and reports what the person
 * changed and which errors appeared; revert() puts back the exact original bytes (or removes a
 * file that did not exist, with the folders made for it) and leaves no dirty document behind.
 */
import { mkdir, readFile, rm, rmdir, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { Throttle } from "../../core/util/throttle";
import type { DiffSession } from "../bridge";
import { unifiedDiff } from "./line-diff";
import type { OriginalContentProvider } from "./original-content";
import { newProblems, type Problem } from "./problems";
import { minimalReplacement } from "./streamed-edit";

export interface DiffSessionOptions {
  /** Streamed updates reach the editor at most this often. */
  readonly updateIntervalMs: number;
  /** After saving, how long to wait at most for the language servers' new diagnostics. */
  readonly diagnosticsSettleMs: number;
}

interface OpenFile {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  /** The exact bytes before the edit; undefined for a file the edit creates. */
  readonly originalBytes: Buffer | undefined;
  /** The left side's text (the document's text when the view opened). */
  readonly originalText: string;
  /** Folders created for a new file, deepest first. */
  readonly createdFolders: readonly string[];
  readonly problemsBefore: readonly Problem[];
}

export class EditorDiffSession implements DiffSession {
  private proposed: string;
  private finished = false;
  private updateError: unknown;
  private readonly throttle: Throttle;

  private constructor(
    private readonly file: OpenFile,
    private readonly originals: OriginalContentProvider,
    private readonly log: vscode.LogOutputChannel,
    private readonly options: DiffSessionOptions,
  ) {
    this.proposed = file.originalText;
    this.throttle = new Throttle(options.updateIntervalMs, (error) => {
      this.updateError ??= error;
      log.error(`Showing the proposed edit of ${file.uri.fsPath} failed: ${errorText(error)}`);
    });
  }

  static async open(
    absolutePath: string,
    originals: OriginalContentProvider,
    log: vscode.LogOutputChannel,
    options: DiffSessionOptions,
  ): Promise<EditorDiffSession> {
    const uri = vscode.Uri.file(absolutePath);
    const existed = await isFile(absolutePath);
    const createdFolders = existed ? [] : await createEmptyFile(absolutePath);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      if (document.isDirty) {
        // The person's unsaved typing would otherwise be overwritten by the proposal: keep it on disk.
        log.info(`Saving unsaved changes in ${absolutePath} before showing Tandem's edit.`);
        if (!(await document.save())) throw new Error(`${absolutePath} has unsaved changes that could not be saved; save or revert them, then try again.`);
      }
      const originalText = document.getText();
      const file: OpenFile = {
        uri,
        originalUri: originals.add(absolutePath, originalText),
        originalBytes: existed ? await readFile(absolutePath) : undefined,
        originalText,
        createdFolders,
        problemsBefore: errorsOf(uri),
      };
      const title = `${path.basename(absolutePath)}: ${existed ? "Original" : "New file"} ↔ Tandem's edit (editable)`;
      await vscode.commands.executeCommand("vscode.diff", file.originalUri, uri, title, { preview: false, preserveFocus: true });
      return new EditorDiffSession(file, originals, log, options);
    } catch (error) {
      if (!existed) await removeCreated(absolutePath, createdFolders, log);
      throw error;
    }
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
    const document = await this.document();
    if (document.isDirty && !(await document.save())) throw new Error(`VS Code did not save ${this.file.uri.fsPath}.`);
    this.finished = true;
    await this.diagnosticsSettled();
    const content = await readFile(this.file.uri.fsPath, "utf8");
    const label = vscode.workspace.asRelativePath(this.file.uri, false);
    const personEdits = unifiedDiff(withoutBom(this.proposed), withoutBom(content), {
      oldLabel: `${label} (Tandem's proposal)`,
      newLabel: `${label} (as saved)`,
    });
    const problems = newProblems(this.file.problemsBefore, errorsOf(this.file.uri));
    await this.close();
    return personEdits === undefined ? { content, newProblems: problems } : { content, personEdits, newProblems: problems };
  }

  async revert(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.throttle.cancel();
    const { uri, originalBytes } = this.file;
    // The disk comes first: when the window reloads or closes, the editor never answers the steps
    // below, and an empty file for an edit nobody approved would be left behind. (An existing
    // file's bytes change only on save, so they are still the original ones here.)
    if (originalBytes === undefined) await removeCreated(uri.fsPath, this.file.createdFolders, this.log);
    await this.throttle.flush();
    // First make the document show the original and be clean, so closing the view asks nothing ...
    // (a new file's document may be gone already, if the person closed its editor)
    const document = originalBytes === undefined ? this.openDocument() : await this.document();
    if (document) {
      await this.replaceText(document, originalBytes === undefined ? "" : this.file.originalText);
      if (document.isDirty && !(await document.save())) this.log.warn(`Could not save the restored ${uri.fsPath}; restoring it on disk anyway.`);
    }
    // ... then put back the exact bytes (saving may have reformatted them), or remove the new file.
    if (originalBytes !== undefined) await writeFile(uri.fsPath, originalBytes);
    await this.close();
    if (originalBytes === undefined) await removeCreated(uri.fsPath, this.file.createdFolders, this.log);
  }

  private assertOpen(): void {
    if (this.finished) throw new Error(`The diff view of ${this.file.uri.fsPath} is already closed.`);
  }

  /** The file's document if VS Code still holds it, without reading the disk. */
  private openDocument(): vscode.TextDocument | undefined {
    const target = this.file.uri.toString();
    return vscode.workspace.textDocuments.find((document) => document.uri.toString() === target);
  }

  /** The file's document (reopened if the person closed every editor of it). */
  private async document(): Promise<vscode.TextDocument> {
    return vscode.workspace.openTextDocument(this.file.uri);
  }

  private async show(proposed: string, reveal: boolean): Promise<void> {
    const document = await this.document();
    const changedUpTo = await this.replaceText(document, proposed);
    if (!reveal || changedUpTo === undefined) return;
    // Follow the stream: keep the line being written in view.
    const line = document.positionAt(changedUpTo).line;
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== this.file.uri.toString()) continue;
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  /** Replaces only what differs; returns the offset where the new text ends (undefined: no change). */
  private async replaceText(document: vscode.TextDocument, text: string): Promise<number | undefined> {
    const eol = document.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
    const wanted = text.replace(/\r?\n/g, eol);
    const change = minimalReplacement(document.getText(), wanted);
    if (!change) return undefined;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)), change.text);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit of ${document.uri.fsPath}.`);
    return change.start + change.text.length;
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
      const timer = setTimeout(done, this.options.diagnosticsSettleMs);
    });
  }

  private async close(): Promise<void> {
    const original = this.file.originalUri.toString();
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.original.toString() === original);
    if (tabs.length > 0 && !(await vscode.window.tabGroups.close(tabs, true))) this.log.warn(`The diff view of ${this.file.uri.fsPath} did not close.`);
    this.originals.remove(this.file.originalUri);
  }
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

async function isFile(absolutePath: string): Promise<boolean> {
  try {
    if ((await stat(absolutePath)).isFile()) return true;
    throw new Error(`${absolutePath} exists and is not a file.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Creates an empty file (the editor needs one to open) and returns the folders made for it, deepest first. */
async function createEmptyFile(absolutePath: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = path.dirname(absolutePath); !(await folderExists(dir)); dir = path.dirname(dir)) {
    missing.push(dir);
    if (path.dirname(dir) === dir) break;
  }
  await mkdir(path.dirname(absolutePath), { recursive: true });
  await writeFile(absolutePath, "", { flag: "wx" });
  return missing;
}

async function folderExists(dir: string): Promise<boolean> {
  try {
    if ((await stat(dir)).isDirectory()) return true;
    throw new Error(`${dir} is a file, not a folder.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Removes a file the edit created and the folders made for it (unless something else is in them now). */
async function removeCreated(absolutePath: string, folders: readonly string[], log: vscode.LogOutputChannel): Promise<void> {
  await rm(absolutePath, { force: true });
  for (const dir of folders) {
    try {
      await rmdir(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST") return; // someone else's files are in it now: keep it
      if (code !== "ENOENT") log.warn(`Could not remove the folder ${dir}: ${errorText(error)}`);
    }
  }
}

function withoutBom(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
