/**
 * The editor's files and problems as plain lists, for `EditorHost` (editor-state.ts): files on
 * disk only (the `file` scheme: not diff sides, untitled buffers or Tandem's own proposals), each
 * named once, errors and warnings only. No `vscode` at run time, so it is tested in Node.
 */
import type { WorkspaceProblem } from "../bridge";

/** What these helpers read of a `vscode.Uri`. */
export interface UriLike {
  readonly scheme: string;
  readonly fsPath: string;
}

/** What they read of a `vscode.Diagnostic`. */
export interface DiagnosticLike {
  readonly severity: number;
  readonly message: string;
  readonly source?: string;
  readonly code?: string | number | { readonly value: string | number };
  readonly range: { readonly start: { readonly line: number } };
}

/** `vscode.DiagnosticSeverity`'s numbers for the two kinds kept. */
export interface Severities {
  readonly error: number;
  readonly warning: number;
}

/** The files on disk among `uris`, in order, each once. */
export function filePaths(uris: readonly (UriLike | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const uri of uris) if (uri?.scheme === "file") seen.add(uri.fsPath);
  return [...seen];
}

/** The visible files with the active editor's first. */
export function activeFirst(active: UriLike | undefined, visible: readonly UriLike[]): string[] {
  return filePaths([active, ...visible]);
}

/** The errors and warnings of files on disk, errors first, each file's in line order. */
export function problemsOf(entries: readonly (readonly [UriLike, readonly DiagnosticLike[]])[], severities: Severities): WorkspaceProblem[] {
  const found: { problem: WorkspaceProblem; file: number }[] = [];
  entries.forEach(([uri, diagnostics], file) => {
    if (uri.scheme !== "file") return;
    for (const d of diagnostics) {
      const severity = d.severity === severities.error ? "error" : d.severity === severities.warning ? "warning" : undefined;
      if (!severity) continue;
      const code = typeof d.code === "object" ? d.code.value : d.code;
      const problem: WorkspaceProblem = {
        path: uri.fsPath,
        line: d.range.start.line,
        severity,
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(code === undefined || code === "" ? {} : { code: String(code) }),
      };
      found.push({ problem, file });
    }
  });
  const rank = (p: WorkspaceProblem) => (p.severity === "error" ? 0 : 1);
  // Files keep the editor's order within each severity.
  found.sort((a, b) => rank(a.problem) - rank(b.problem) || a.file - b.file || a.problem.line - b.problem.line);
  return found.map((f) => f.problem);
}
