/**
 * What search_files found, collected the same way whichever engine searched (ripgrep or the
 * JavaScript fallback), capped, and formatted grep-style: `12:` a match, `11-` its context.
 */
import type { ShowPath } from "../../files/listing";

export const SEARCH_RESULT_LIMIT = 300;
/** Longer lines (minified code) are cut: one line must not flood the answer. */
export const MAX_LINE_CHARS = 250;

interface FoundLine {
  readonly line: number;
  readonly text: string;
  readonly match: boolean;
}

export class SearchResults {
  private readonly files = new Map<string, FoundLine[]>();
  private matches = 0;
  /** Set once a match beyond the limit turned up; the engine should stop then. */
  truncated = false;
  readonly notes: string[] = [];

  constructor(readonly limit = SEARCH_RESULT_LIMIT) {}

  get matchCount(): number {
    return this.matches;
  }

  /** Records a line; returns false once the limit is exceeded (the line is then dropped). */
  add(absoluteFile: string, line: number, text: string, match: boolean): boolean {
    if (this.truncated) return false;
    if (match && this.matches === this.limit) {
      this.truncated = true;
      return false;
    }
    if (match) this.matches++;
    let lines = this.files.get(absoluteFile);
    if (!lines) this.files.set(absoluteFile, (lines = []));
    // A line can arrive twice (after-context of one match, then the next match): keep one, a match wins.
    const seen = lines.findLastIndex((l) => l.line <= line);
    const known = lines[seen];
    if (known?.line === line) {
      if (match && !known.match) lines[seen] = { line, text, match };
      return true;
    }
    lines.splice(seen + 1, 0, { line, text, match });
    return true;
  }

  format(shown: ShowPath, heading: string): string {
    const blocks: string[] = [];
    let fileCount = 0;
    for (const [file, all] of this.files) {
      const lines = withoutStrayContext(all);
      if (!lines.some((l) => l.match)) continue;
      fileCount++;
      blocks.push(`${shown(file)}\n${formatLines(lines)}`);
    }
    const summary = `Found ${this.matches} ${this.matches === 1 ? "match" : "matches"}${fileCount > 0 ? ` in ${fileCount} ${fileCount === 1 ? "file" : "files"}` : ""} ${heading}.`;
    const notes = [...this.notes];
    if (this.truncated) {
      notes.push(`[Results cut at ${this.limit} matches. Narrow the search with a more specific regex, path or file_pattern.]`);
    }
    return [summary, ...blocks, ...notes].join("\n\n");
  }
}

/** Context lines kept only next to a kept match (a cut can leave the next match's context behind). */
function withoutStrayContext(lines: FoundLine[]): FoundLine[] {
  const matchLines = new Set(lines.filter((l) => l.match).map((l) => l.line));
  return lines.filter((l) => l.match || matchLines.has(l.line - 1) || matchLines.has(l.line + 1));
}

function formatLines(lines: FoundLine[]): string {
  const width = Math.max(...lines.map((l) => String(l.line).length));
  const out: string[] = [];
  let previous: number | undefined;
  for (const { line, text, match } of lines) {
    if (previous !== undefined && line > previous + 1) out.push("--");
    out.push(`${String(line).padStart(width)}${match ? ":" : "-"} ${clip(text)}`);
    previous = line;
  }
  return out.join("\n");
}

function clip(text: string): string {
  const clean = text.replace(/\r?\n$/, "");
  return clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS)}… [line cut]` : clean;
}
