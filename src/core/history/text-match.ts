/**
 * How a History query matches a task's text and its conversation digest, and how well (`RANK`:
 * lower is better). Everything compares case-folded copies made once per task, of the same length
 * as the original, so a range found in the copy marks the original.
 */
import type { TextRange } from "../../shared/protocol";
import { MODEL_MARK, PERSON_MARK } from "./task-digest";

export const RANK = {
  textExact: 0,
  textPrefix: 1,
  /** The query starts a word of the text. */
  textWordStart: 2,
  textSubstring: 3,
  conversationSubstring: 4,
  /** Each word of the query somewhere in the text. */
  textWords: 5,
  conversationWords: 6,
  /** The query's letters in order, close together, in the text's start. */
  textFuzzy: 7,
} as const;

/** A subsequence is looked for in the text's first characters only: over a long text it matches nearly anything. */
const FUZZY_SPAN = 300;
/** A subsequence counts when its letters are this close together (its span at most this many times its length). */
const FUZZY_SPREAD = 4;

/** A query as matched: folded, whitespace as single spaces; its words; its letters without spaces. */
export interface Query {
  readonly text: string;
  readonly words: readonly string[];
  readonly letters: string;
}

export function parseQuery(raw: string): Query | undefined {
  // eslint-disable-next-line no-control-regex -- no control character may match a digest's line marks
  const text = foldCase(raw.replace(/[\u0000-\u001f\u007f]/g, " ")).replace(/\s+/g, " ").trim();
  if (!text) return undefined;
  const words = text.split(" ");
  return { text, words, letters: words.join("") };
}

/**
 * Lower case and whitespace as spaces, keeping the length: a character whose lower case is longer
 * (as "İ") stays as it is, so every index still points at the same character.
 */
export function foldCase(text: string): string {
  let folded = text.toLowerCase();
  if (folded.length !== text.length) {
    folded = "";
    for (const char of text) {
      const lower = char.toLowerCase();
      folded += lower.length === char.length ? lower : char;
    }
  }
  return folded.replace(/\s/g, " ");
}

export interface Hit {
  readonly rank: number;
  readonly ranges: readonly TextRange[];
}

/** The best match of `query` in a task's folded text, if any. */
export function matchText(folded: string, query: Query): Hit | undefined {
  const { text: q } = query;
  const lead = folded.length - folded.trimStart().length;
  const trimmed = folded.trim();
  if (trimmed === q) return { rank: RANK.textExact, ranges: [[lead, lead + q.length]] };
  if (trimmed.startsWith(q)) return { rank: RANK.textPrefix, ranges: [[lead, lead + q.length]] };
  const first = folded.indexOf(q);
  if (first >= 0) {
    const atWord = wordStartIndex(folded, q, first);
    const at = atWord ?? first;
    return { rank: atWord === undefined ? RANK.textSubstring : RANK.textWordStart, ranges: [[at, at + q.length]] };
  }
  const words = wordRanges(folded, query);
  if (words) return { rank: RANK.textWords, ranges: words };
  const fuzzy = subsequence(folded.slice(0, FUZZY_SPAN), query.letters);
  return fuzzy && { rank: RANK.textFuzzy, ranges: fuzzy };
}

/** The best match of `query` in a folded digest: where it is, for the snippet. */
export function matchDigest(folded: string, query: Query): Hit | undefined {
  const at = folded.indexOf(query.text);
  if (at >= 0) return { rank: RANK.conversationSubstring, ranges: [[at, at + query.text.length]] };
  const words = wordRanges(folded, query);
  return words && { rank: RANK.conversationWords, ranges: words };
}

/** What the list shows of a digest match: the words around it on its line, who wrote them, and the ranges in that text. */
export function snippetOf(digest: string, ranges: readonly TextRange[]): { text: string; by: "person" | "model"; ranges: TextRange[] } {
  const [at, end] = ranges[0]!;
  const lineStart = digest.lastIndexOf("\n", at) + 1;
  const lineEnd = digest.indexOf("\n", at) < 0 ? digest.length : digest.indexOf("\n", at);
  const by = digest[lineStart] === MODEL_MARK ? "model" : "person";
  const contentStart = digest[lineStart] === MODEL_MARK || digest[lineStart] === PERSON_MARK ? lineStart + 1 : lineStart;
  const from = Math.max(contentStart, at - 40);
  const to = Math.min(lineEnd, Math.max(end, at) + 80);
  const before = from > contentStart ? "…" : "";
  const text = `${before}${digest.slice(from, to)}${to < lineEnd ? "…" : ""}`;
  const shift = before.length - from;
  const shown = ranges.filter(([s, e]) => s >= from && e <= to).map(([s, e]): TextRange => [s + shift, e + shift]);
  return { text, by, ranges: shown };
}

/** The first place `q` starts a word (or the text), looking from `from`. */
function wordStartIndex(folded: string, q: string, from: number): number | undefined {
  for (let at = from; at >= 0; at = folded.indexOf(q, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(folded[at - 1]!)) return at;
  }
  return undefined;
}

/** Each word of a query of two or more words, somewhere in the text: the first place of each; undefined when one is missing. */
function wordRanges(folded: string, query: Query): TextRange[] | undefined {
  if (query.words.length < 2) return undefined;
  const ranges: TextRange[] = [];
  for (const word of query.words) {
    const at = folded.indexOf(word);
    if (at < 0) return undefined;
    ranges.push([at, at + word.length]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/**
 * The tightest place where `letters` occur in order in `text`, as ranges of consecutive letters;
 * undefined when they do not, or only spread too far apart to mean anything.
 */
export function subsequence(text: string, letters: string): TextRange[] | undefined {
  if (letters.length < 2) return undefined;
  let best: number[] | undefined;
  for (let start = text.indexOf(letters[0]!); start >= 0; start = text.indexOf(letters[0]!, start + 1)) {
    // Forward from this start, then back from where it ended: the shortest window ending there.
    let at = start;
    let end = -1;
    for (const letter of letters) {
      end = text.indexOf(letter, at);
      if (end < 0) break;
      at = end + 1;
    }
    if (end < 0) break;
    const positions: number[] = [];
    let back = end;
    for (let k = letters.length - 1; k >= 0; k--) {
      back = text.lastIndexOf(letters[k]!, back);
      positions.unshift(back);
      back--;
    }
    if (!best || end - positions[0]! < best.at(-1)! - best[0]!) best = positions;
    start = positions[0]!;
  }
  if (!best || best.at(-1)! - best[0]! + 1 > letters.length * FUZZY_SPREAD) return undefined;
  const ranges: [number, number][] = [];
  for (const position of best) {
    const last = ranges.at(-1);
    if (last && last[1] === position) last[1]++;
    else ranges.push([position, position + 1]);
  }
  return ranges;
}
