/**
 * When a SEARCH part is not found, finds the window of the file that looks most like it, so the
 * error can quote the real text. Lines are compared by their character pairs (Dice coefficient,
 * whitespace runs collapsed), which tolerates typos and small edits yet costs little per line.
 */
import type { FileIndex } from "./diff-match";

export interface ClosestRegion {
  /** 0-based [start, end) in the file. */
  readonly start: number;
  readonly end: number;
  /** 0..1: the mean line similarity over the SEARCH's lines. */
  readonly similarity: number;
  /** The first line pair that differs (trimmed), 0-based within the SEARCH. */
  readonly firstDifference?: number;
}

/** Beyond this many line comparisons only windows near the best anchor lines are scored. */
const FULL_SCAN_BUDGET = 400_000;
const CANDIDATES_PER_ANCHOR = 100;

/** A line's character pairs as sorted codes, so two lines compare by one merge pass. */
interface Profile {
  readonly grams: Uint32Array;
  readonly text: string;
}

export function closestRegion(file: FileIndex, search: readonly string[]): ClosestRegion | undefined {
  const length = Math.min(search.length, file.lines.length);
  if (length === 0) return undefined;
  const similarity = lineSimilarity(file, search);
  const score = (start: number) => {
    let sum = 0;
    for (let j = 0; j < length; j++) sum += similarity(j, start + j);
    return sum / search.length;
  };
  let best = { start: 0, score: -1 };
  for (const start of candidateStarts(file, search, length, similarity)) {
    const s = score(start);
    if (s > best.score) best = { start, score: s };
  }
  const differs = [...Array(length).keys()].find((j) => file.trimmed[best.start + j] !== search[j]!.trim());
  return { start: best.start, end: best.start + length, similarity: best.score, firstDifference: differs };
}

/** Every window when the file is small enough; otherwise those aligned with the best-matching anchor lines. */
function candidateStarts(
  file: FileIndex,
  search: readonly string[],
  length: number,
  similarity: (searchLine: number, fileLine: number) => number,
): number[] {
  const lastStart = file.lines.length - length;
  if ((lastStart + 1) * length <= FULL_SCAN_BUDGET) return [...Array(lastStart + 1).keys()];
  const anchors = new Set([search.findIndex((l) => l.trim() !== ""), search.findLastIndex((l) => l.trim() !== "")]);
  const starts = new Set<number>();
  for (const j of anchors) {
    if (j < 0 || j >= length) continue;
    const ranked = file.lines.map((_, i) => ({ i, s: similarity(j, i) })).sort((a, b) => b.s - a.s);
    for (const { i } of ranked.slice(0, CANDIDATES_PER_ANCHOR)) starts.add(Math.min(Math.max(i - j, 0), lastStart));
  }
  return starts.size > 0 ? [...starts] : [0];
}

/** sim(searchLine, fileLine), with each distinct line's profile built once. */
function lineSimilarity(file: FileIndex, search: readonly string[]): (searchLine: number, fileLine: number) => number {
  const cache = new Map<string, Profile>();
  const profileOf = (text: string) => {
    let p = cache.get(text);
    if (!p) cache.set(text, (p = profile(text)));
    return p;
  };
  const searchProfiles = search.map(profileOf);
  return (j, i) => dice(searchProfiles[j]!, profileOf(file.trimmed[i] ?? ""));
}

function profile(raw: string): Profile {
  const text = raw.trim().replace(/\s+/g, " ");
  const grams = new Uint32Array(text.length === 1 ? 1 : Math.max(text.length - 1, 0));
  if (text.length === 1) grams[0] = text.charCodeAt(0);
  for (let k = 0; k + 1 < text.length; k++) grams[k] = text.charCodeAt(k) * 0x10000 + text.charCodeAt(k + 1);
  return { grams: grams.sort(), text };
}

function dice(a: Profile, b: Profile): number {
  if (a.text === b.text) return 1;
  const x = a.grams;
  const y = b.grams;
  if (x.length === 0 || y.length === 0) return 0;
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const a1 = x[i]!;
    const b1 = y[j]!;
    if (a1 === b1) shared++;
    if (a1 <= b1) i++;
    if (b1 <= a1) j++;
  }
  return (2 * shared) / (x.length + y.length);
}
