/**
 * What "Add Selection to Chat" puts into the chat input: where the code is, then the code in a
 * fenced block the model reads as a quote.
 */

export interface SelectedCode {
  /** Workspace-relative path (or absolute, outside any folder). */
  readonly path: string;
  /** One-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** VS Code's language id, used as the fence's info string. */
  readonly languageId: string;
  readonly text: string;
}

export function formatSelectionForChat(selection: SelectedCode): string {
  const { path, startLine, endLine } = selection;
  const where = startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
  const code = selection.text.replace(/\r\n/g, "\n").replace(/\n$/, "");
  // The fence must be longer than any run of backticks inside the code, or the code would end it.
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  const info = /^[\w+#.-]+$/.test(selection.languageId) ? selection.languageId : "";
  return `${where}\n${fence}${info}\n${code}\n${fence}\n`;
}

/**
 * The lines a selection covers. A selection that ends at the very start of a line (a whole-line
 * selection made with Shift+Down) does not include that line.
 */
export function selectedLineRange(start: { line: number }, end: { line: number; character: number }): { startLine: number; endLine: number } {
  const lastLine = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  return { startLine: start.line + 1, endLine: lastLine + 1 };
}
