/**
 * A file seen as lines that remember their own line break. Edits replace whole lines, so every
 * line outside an edit keeps its exact bytes (even in a file with mixed endings), new lines take
 * the file's own line break, and the final newline stays as it was.
 */

export type Eol = "\n" | "\r\n";

export interface FileLines {
  /** A UTF-8 byte order mark the file starts with, kept aside so it never disturbs matching. */
  readonly bom: string;
  /** Each line's text, without its line break. */
  readonly lines: readonly string[];
  /** Each line's own break; "" only for a last line with none. */
  readonly breaks: readonly string[];
  /** The file's line break, judged by its first one (as editors do); LF when it has none. */
  readonly eol: Eol;
}

/** Replace lines [start, end) of the original with `lines`. */
export interface LineEdit {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

export function splitFile(text: string): FileLines {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const lines: string[] = [];
  const breaks: string[] = [];
  const lineBreak = /\r?\n/g;
  let from = 0;
  for (let m = lineBreak.exec(body); m !== null; m = lineBreak.exec(body)) {
    lines.push(body.slice(from, m.index));
    breaks.push(m[0]);
    from = m.index + m[0].length;
  }
  if (from < body.length) {
    lines.push(body.slice(from));
    breaks.push("");
  }
  return { bom, lines, breaks, eol: breaks[0] === "\r\n" ? "\r\n" : "\n" };
}

/** True when the file holds nothing but whitespace: an empty SEARCH may then fill it. */
export function isBlankFile(file: FileLines): boolean {
  return file.lines.every((line) => line.trim() === "");
}

export interface EditedFile {
  readonly text: string;
  /** Where each edit's new lines ended up, [start, end) 0-based, in the order the edits were given. */
  readonly ranges: readonly { start: number; end: number }[];
}

/** Applies non-overlapping edits (any order) to the original lines. */
export function applyLineEdits(file: FileLines, edits: readonly LineEdit[]): EditedFile {
  const order = edits.map((_, i) => i).sort((a, b) => edits[a]!.start - edits[b]!.start || a - b);
  const lines: string[] = [];
  const breaks: string[] = [];
  const ranges: { start: number; end: number }[] = edits.map(() => ({ start: 0, end: 0 }));
  let cursor = 0;
  for (const i of order) {
    const edit = edits[i]!;
    lines.push(...file.lines.slice(cursor, edit.start));
    breaks.push(...file.breaks.slice(cursor, edit.start));
    ranges[i] = { start: lines.length, end: lines.length + edit.lines.length };
    lines.push(...edit.lines);
    breaks.push(...edit.lines.map(() => file.eol));
    cursor = Math.max(cursor, edit.end);
  }
  lines.push(...file.lines.slice(cursor));
  breaks.push(...file.breaks.slice(cursor));
  settleBreaks(file, breaks);
  return { text: file.bom + lines.map((line, i) => line + breaks[i]).join(""), ranges };
}

/**
 * Every line but the last needs a break; the last ends as the original's did. A blank original
 * had no final newline to keep, so new content gets one, as editors write it.
 */
function settleBreaks(file: FileLines, breaks: string[]): void {
  const last = breaks.length - 1;
  for (let i = 0; i < last; i++) if (breaks[i] === "") breaks[i] = file.eol;
  if (last < 0) return;
  const originalLast = file.breaks.at(-1);
  if (originalLast === "" && !isBlankFile(file)) breaks[last] = "";
  else if (breaks[last] === "") breaks[last] = file.eol;
}
