/**
 * Finds where a SEARCH part sits in the file, trying ever looser rules and stopping at the first
 * that finds anything: exact lines; lines equal once leading/trailing whitespace is trimmed; and
 * (3+ lines) only the first and last lines, trimmed, with the same line count. A rule that finds
 * more than one place is an ambiguity, never a guess.
 */

export type MatchStrategy = "exact" | "trimmed" | "anchors";

/** The file's lines, and their trimmed forms computed once for all blocks. */
export interface FileIndex {
  readonly lines: readonly string[];
  readonly trimmed: readonly string[];
}

export type Match =
  | { readonly kind: "found"; readonly start: number; readonly strategy: MatchStrategy }
  | { readonly kind: "ambiguous"; readonly starts: readonly number[]; readonly strategy: MatchStrategy }
  | { readonly kind: "not_found" };

export function indexLines(lines: readonly string[]): FileIndex {
  return { lines, trimmed: lines.map((line) => line.trim()) };
}

type Matcher = (file: FileIndex, at: number) => boolean;

/** The rules in order, each bound to one SEARCH; a rule that cannot apply is left out. */
function matchers(search: readonly string[]): [MatchStrategy, Matcher][] {
  const trimmed = search.map((line) => line.trim());
  const exact: Matcher = (file, at) => search.every((line, j) => file.lines[at + j] === line);
  const loose: Matcher = (file, at) => trimmed.every((line, j) => file.trimmed[at + j] === line);
  const rules: [MatchStrategy, Matcher][] = [
    ["exact", exact],
    ["trimmed", loose],
  ];
  const first = trimmed[0] ?? "";
  const last = trimmed.at(-1) ?? "";
  // Blank anchors would match almost anywhere, so they do not count as anchors.
  if (search.length >= 3 && first !== "" && last !== "") {
    rules.push(["anchors", (file, at) => file.trimmed[at] === first && file.trimmed[at + search.length - 1] === last]);
  }
  return rules;
}

/** Where `search` (one or more lines) matches; the caller handles an empty SEARCH. */
export function findLines(file: FileIndex, search: readonly string[]): Match {
  const lastStart = file.lines.length - search.length;
  for (const [strategy, matches] of matchers(search)) {
    const starts: number[] = [];
    for (let at = 0; at <= lastStart; at++) if (matches(file, at)) starts.push(at);
    if (starts.length === 1) return { kind: "found", start: starts[0]!, strategy };
    if (starts.length > 1) return { kind: "ambiguous", starts, strategy };
  }
  return { kind: "not_found" };
}
