/**
 * DiffApplyError and its message: written for the model, so each failed block is named, the real
 * file text it should have used is quoted with line numbers, and the other blocks' outcome is
 * stated (nothing is applied when any block fails, so the model must resend them all).
 */
import type { ClosestRegion } from "./diff-closest";
import type { FileIndex, MatchStrategy } from "./diff-match";
import { clip, type DiffBlock } from "./diff-parse";

export type BlockOutcome =
  | { readonly kind: "matched"; readonly block: DiffBlock; readonly start: number; readonly end: number; readonly strategy: MatchStrategy | "blank_file" }
  | { readonly kind: "not_found"; readonly block: DiffBlock; readonly closest?: ClosestRegion; readonly replaceFoundAt?: number }
  | { readonly kind: "ambiguous"; readonly block: DiffBlock; readonly starts: readonly number[]; readonly strategy: MatchStrategy }
  | { readonly kind: "overlap"; readonly block: DiffBlock; readonly start: number; readonly end: number; readonly other: DiffBlock }
  | { readonly kind: "empty_search"; readonly block: DiffBlock };

/** A diff that could not be applied; `outcomes` is empty when the diff itself was malformed. */
export class DiffApplyError extends Error {
  override readonly name = "DiffApplyError";
  constructor(
    message: string,
    readonly outcomes: readonly BlockOutcome[] = [],
  ) {
    super(message);
  }
}

export const FORMAT_REMINDER = [
  "Each block must look like this (markers on lines of their own):",
  "------- SEARCH",
  "exact lines from the file",
  "=======",
  "the lines to put in their place",
  "+++++++ REPLACE",
].join("\n");

const MAX_QUOTED_LINES = 50;
const MAX_LISTED_PLACES = 10;
const WEAK_SIMILARITY = 0.4;

export function describeStrategy(strategy: MatchStrategy | "blank_file"): string {
  switch (strategy) {
    case "exact":
      return "exactly";
    case "trimmed":
      return "ignoring leading/trailing whitespace";
    case "anchors":
      return "by its first and last lines only";
    case "blank_file":
      return "as the content of the empty file";
  }
}

export function blockName(block: DiffBlock): string {
  const first = block.search.find((line) => line.trim() !== "");
  return first === undefined ? `Block ${block.number} (empty SEARCH)` : `Block ${block.number} (SEARCH starting "${clip(first)}")`;
}

/** "lines 3-5", "line 3", or where an insertion into an empty file goes. */
export function lineSpan(start: number, end: number): string {
  if (end <= start) return "the start of the file";
  return end - start === 1 ? `line ${start + 1}` : `lines ${start + 1}-${end}`;
}

/** Lines [start, end) as read_file shows them: `12|text`. */
export function quoteLines(lines: readonly string[], start: number, end: number): string {
  const shown = Math.min(end, start + MAX_QUOTED_LINES);
  const body = lines.slice(start, shown).map((text, k) => `${start + k + 1}|${text}`);
  if (shown < end) body.push(`… (${end - shown} more lines)`);
  return body.join("\n");
}

export function failureMessage(outcomes: readonly BlockOutcome[], file: FileIndex): string {
  const failed = outcomes.filter((o) => o.kind !== "matched");
  const head =
    outcomes.length === 1
      ? "The diff was not applied."
      : `The diff was not applied: ${failed.length} of ${outcomes.length} SEARCH/REPLACE blocks failed, so none of them was applied.`;
  const parts = [head, ...failed.map((o) => describeFailure(o, file))];
  const matched = outcomes.filter((o) => o.kind === "matched");
  if (matched.length > 0) {
    parts.push(matched.map((o) => `${blockName(o.block)} matched ${lineSpan(o.start, o.end)} ${describeStrategy(o.strategy)}.`).join("\n"));
  }
  if (outcomes.length > 1) parts.push("Fix the failed blocks and send the whole diff again, every block included.");
  return parts.join("\n\n");
}

function describeFailure(outcome: Exclude<BlockOutcome, { kind: "matched" }>, file: FileIndex): string {
  const name = blockName(outcome.block);
  switch (outcome.kind) {
    case "empty_search":
      return (
        `${name} has an empty SEARCH part, but the file is not empty. An empty SEARCH only fills an empty file. ` +
        "To replace the whole file use write_to_file; otherwise put the lines to change, with a little unchanged context, in SEARCH."
      );
    case "ambiguous":
      return describeAmbiguity(name, outcome.starts, outcome.block.search.length, outcome.strategy);
    case "overlap":
      return (
        `${name} matched ${lineSpan(outcome.start, outcome.end)}, which overlaps block ${outcome.other.number}. ` +
        "Each line may be changed by one block only: merge overlapping edits into one block."
      );
    case "not_found":
      return describeNotFound(name, outcome, file);
  }
}

function describeAmbiguity(name: string, starts: readonly number[], length: number, strategy: MatchStrategy): string {
  const places = starts.slice(0, MAX_LISTED_PLACES).map((s) => lineSpan(s, s + length));
  const more = starts.length > MAX_LISTED_PLACES ? `, and ${starts.length - MAX_LISTED_PLACES} more` : "";
  return (
    `${name} matches ${starts.length} places in the file (${describeStrategy(strategy)}): ${places.join(", ")}${more}. ` +
    "Add a few unchanged lines around it (to SEARCH and REPLACE alike) so that it matches exactly one place."
  );
}

function describeNotFound(name: string, outcome: Extract<BlockOutcome, { kind: "not_found" }>, file: FileIndex): string {
  const { block, closest } = outcome;
  const lines = [`${name} was not found in the file.`];
  if (looksNumbered(block.search)) {
    lines.push('Its SEARCH lines start with line numbers ("12|"), which read_file shows but the file does not have, and they do not match where the lines are. Leave them out.');
  }
  if (outcome.replaceFoundAt !== undefined) {
    const at = outcome.replaceFoundAt;
    lines.push(`Its REPLACE text is already in the file at ${lineSpan(at, at + block.replace.length)}: this edit may have been made already.`);
  }
  if (closest === undefined) {
    lines.push("The file is empty.");
  } else {
    const percent = Math.round(closest.similarity * 100);
    const span = lineSpan(closest.start, closest.end);
    lines.push(
      closest.similarity < WEAK_SIMILARITY
        ? `Nothing in the file resembles it closely; the nearest is ${span} (${percent}% similar). The file may have changed: read it again.`
        : `The closest region of the file is ${span} (${percent}% similar):`,
      quoteLines(file.lines, closest.start, closest.end),
    );
    const j = closest.firstDifference;
    if (j !== undefined && closest.similarity >= WEAK_SIMILARITY) {
      lines.push(`First difference: SEARCH line ${j + 1} is "${clip(block.search[j] ?? "", 100)}", but line ${closest.start + j + 1} of the file is "${clip(file.lines[closest.start + j] ?? "", 100)}".`);
    }
  }
  lines.push("SEARCH must repeat the file's lines exactly (read_file shows the current text). Correct it and try again.");
  return lines.join("\n");
}

function looksNumbered(search: readonly string[]): boolean {
  const content = search.filter((line) => line.trim() !== "");
  return content.length > 0 && content.filter((line) => /^\s*\d+\s*\|/.test(line)).length * 2 >= content.length;
}
