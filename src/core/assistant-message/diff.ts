/**
 * The SEARCH/REPLACE edit engine behind replace_in_file. Every block is located in the ORIGINAL
 * file (so blocks may come in any order), overlaps are refused, and only then are all edits
 * applied at once: a final diff either applies completely or throws a DiffApplyError that tells
 * the model, block by block, what matched and what to fix. While streaming (isFinal false) it
 * never throws and applies whatever can be applied so far, for a live preview.
 *
 * Pieces: diff-parse (blocks and markers), diff-match (locating a SEARCH), diff-indent (REPLACE
 * shifted like a loosely matched SEARCH), diff-closest (the nearest text when it is not found),
 * diff-lines (line endings), diff-report (the error text), diff-numbers (read_file's line numbers
 * copied into SEARCH).
 */
import { closestRegion } from "./diff-closest";
import { matchIndentation } from "./diff-indent";
import { applyLineEdits, isBlankFile, splitFile, type FileLines } from "./diff-lines";
import { findLines, indexLines, type FileIndex, type MatchStrategy } from "./diff-match";
import { findNumbered, withoutLineNumbers } from "./diff-numbers";
import { DiffSyntaxError, parseDiff, type DiffBlock } from "./diff-parse";
import { DiffApplyError, FORMAT_REMINDER, failureMessage, type BlockOutcome } from "./diff-report";

export { DiffApplyError } from "./diff-report";
export type { BlockOutcome } from "./diff-report";
export type { MatchStrategy } from "./diff-match";

export interface AppliedBlock {
  /** 1-based position of the block in the diff. */
  readonly number: number;
  readonly strategy: MatchStrategy | "blank_file";
  /** The lines it replaced in the original, 0-based [start, end). */
  readonly original: { readonly start: number; readonly end: number };
  /** Where its new lines are in the result, 0-based [start, end). */
  readonly result: { readonly start: number; readonly end: number };
  /** A loose match found the file indented differently from SEARCH, and REPLACE was shifted alike. */
  readonly reindented: boolean;
  /** Streaming only: its REPLACE part is still arriving. */
  readonly partial: boolean;
}

export interface DiffApplication {
  readonly content: string;
  /** The applied blocks, in diff order. */
  readonly blocks: readonly AppliedBlock[];
}

type Matched = Extract<BlockOutcome, { kind: "matched" }>;

/** The new file content; see applyDiff. */
export function constructNewFileContent(diff: string, original: string, isFinal: boolean): string {
  return applyDiff(diff, original, isFinal).content;
}

/** Applies the diff's blocks to `original`; with isFinal, any failure throws DiffApplyError. */
export function applyDiff(diff: string, original: string, isFinal: boolean): DiffApplication {
  const blocks = readBlocks(diff, isFinal);
  const file = splitFile(original);
  const index = indexLines(file.lines);
  const outcomes = markOverlaps(blocks.map((block) => locate(block, file, index, isFinal)));
  if (isFinal && outcomes.some((o) => o.kind !== "matched")) {
    throw new DiffApplyError(failureMessage(outcomes, index), outcomes);
  }
  const matched = outcomes.filter((o): o is Matched => o.kind === "matched");
  const replacements = matched.map((o) => (o.strategy === "trimmed" || o.strategy === "anchors" ? matchIndentation(o.block.search, file.lines.slice(o.start, o.end), o.block.replace) : o.block.replace));
  const edited = applyLineEdits(file, matched.map((o, i) => ({ start: o.start, end: o.end, lines: replacements[i]! })));
  return {
    content: edited.text,
    blocks: matched.map((o, i) => ({
      number: o.block.number,
      strategy: o.strategy,
      original: { start: o.start, end: o.end },
      result: edited.ranges[i]!,
      reindented: replacements[i] !== o.block.replace,
      partial: o.block.state === "replacing",
    })),
  };
}

function readBlocks(diff: string, isFinal: boolean): DiffBlock[] {
  let blocks: DiffBlock[];
  try {
    blocks = parseDiff(diff, isFinal);
  } catch (error) {
    if (error instanceof DiffSyntaxError) throw new DiffApplyError(`The diff could not be read. ${error.message}\n\n${FORMAT_REMINDER}`);
    throw error;
  }
  if (isFinal && blocks.length === 0) throw new DiffApplyError(`The diff contains no SEARCH/REPLACE blocks.\n\n${FORMAT_REMINDER}`);
  return blocks;
}

function locate(block: DiffBlock, file: FileLines, index: FileIndex, isFinal: boolean): BlockOutcome {
  if (block.search.every((line) => line.trim() === "")) {
    return isBlankFile(file) ? { kind: "matched", block, start: 0, end: file.lines.length, strategy: "blank_file" } : { kind: "empty_search", block };
  }
  const match = findLines(index, block.search);
  if (match.kind === "not_found") {
    // Copied with read_file's line numbers: understood when the numbers say where it is.
    const numbered = withoutLineNumbers(block);
    const found = numbered && findNumbered(index, numbered);
    if (numbered && found?.kind === "found") return { kind: "matched", block: numbered.block, start: found.start, end: found.start + numbered.block.search.length, strategy: found.strategy };
  }
  switch (match.kind) {
    case "found":
      return { kind: "matched", block, start: match.start, end: match.start + block.search.length, strategy: match.strategy };
    case "ambiguous":
      return { kind: "ambiguous", block, starts: match.starts, strategy: match.strategy };
    case "not_found":
      // The diagnosis only serves the error message, which only a final call produces.
      return isFinal ? { kind: "not_found", block, closest: closestRegion(index, block.search), replaceFoundAt: findReplaceText(block, index) } : { kind: "not_found", block };
  }
}

/** Where the REPLACE text already stands (a repeated edit), by the two strict rules only. */
function findReplaceText(block: DiffBlock, index: FileIndex): number | undefined {
  if (block.replace.every((line) => line.trim() === "")) return undefined;
  const match = findLines(index, block.replace);
  return match.kind === "found" && match.strategy !== "anchors" ? match.start : undefined;
}

/** Two blocks that claim a common line both fail: neither can be applied as the model meant. */
function markOverlaps(outcomes: BlockOutcome[]): BlockOutcome[] {
  const result = [...outcomes];
  const matched = outcomes.map((o, i) => ({ o, i })).filter((x): x is { o: Matched; i: number } => x.o.kind === "matched");
  matched.sort((a, b) => a.o.start - b.o.start || a.o.end - b.o.end);
  let widest: { o: Matched; i: number } | undefined;
  for (const current of matched) {
    if (widest && current.o.start < widest.o.end) {
      for (const [self, other] of [[current, widest], [widest, current]] as const) {
        if (result[self.i]?.kind === "matched") result[self.i] = { kind: "overlap", block: self.o.block, start: self.o.start, end: self.o.end, other: other.o.block };
      }
    }
    if (!widest || current.o.end > widest.o.end) widest = current;
  }
  return result;
}
