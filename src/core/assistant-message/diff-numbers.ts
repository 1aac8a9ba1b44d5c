/**
 * SEARCH lines the model copied together with read_file's line numbers (`12|text`, or the older
 * `  12 | text`). They are taken off only when every line carries one, the numbers run on one by
 * one, and the lines then stand in the file at exactly those numbers: so a file whose own lines
 * look numbered (a table, a log) is never edited at a place the model did not mean.
 */
import { findLines, type FileIndex, type Match } from "./diff-match";
import type { DiffBlock } from "./diff-parse";

/** `12|text` or `  12 | text`: the digits, then the text as the file has it. */
const NUMBERED = /^\s*(\d+)(?: \| ?|\|)(.*)$/;

/** The block without its line numbers, with where the numbers say it starts (0-based); undefined if it is not numbered so. */
export function withoutLineNumbers(block: DiffBlock): { block: DiffBlock; start: number } | undefined {
  const search = stripConsecutive(block.search);
  if (!search) return undefined;
  // REPLACE lines are new, so their numbers need not run on; they go only if every line has one.
  const replace = block.replace.every((line) => NUMBERED.test(line)) ? block.replace.map((line) => line.replace(NUMBERED, "$2")) : block.replace;
  return { block: { ...block, search: search.lines, replace }, start: search.first - 1 };
}

/** Finds a numbered SEARCH at the place its numbers name, and only there. */
export function findNumbered(index: FileIndex, numbered: { block: DiffBlock; start: number }): Match {
  const match = findLines(index, numbered.block.search);
  if (match.kind === "found") return match.start === numbered.start ? match : { kind: "not_found" };
  if (match.kind === "ambiguous" && match.starts.includes(numbered.start)) return { kind: "found", start: numbered.start, strategy: match.strategy };
  return { kind: "not_found" };
}

function stripConsecutive(lines: readonly string[]): { lines: string[]; first: number } | undefined {
  const stripped: string[] = [];
  let first = 0;
  for (const [i, line] of lines.entries()) {
    const parts = NUMBERED.exec(line);
    if (!parts) return undefined;
    const n = Number(parts[1]);
    if (i === 0) first = n;
    else if (n !== first + i) return undefined;
    stripped.push(parts[2] ?? "");
  }
  return stripped.length > 0 && first > 0 ? { lines: stripped, first } : undefined;
}
