/**
 * The smallest single replacement that turns the editor's text into the next streamed proposal:
 * the common head and tail stay, only the middle is replaced. A streamed file mostly grows at
 * its end, and a streamed SEARCH/REPLACE changes one region, so each update stays cheap for the
 * editor and its diff however long the file is.
 */

export interface TextReplacement {
  /** Offsets into the current text: replace [start, end) ... */
  readonly start: number;
  readonly end: number;
  /** ... with this. */
  readonly text: string;
}

/** Undefined when the texts are equal. */
export function minimalReplacement(current: string, proposed: string): TextReplacement | undefined {
  if (current === proposed) return undefined;
  const limit = Math.min(current.length, proposed.length);
  let head = 0;
  while (head < limit && current.charCodeAt(head) === proposed.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < limit - head && current.charCodeAt(current.length - 1 - tail) === proposed.charCodeAt(proposed.length - 1 - tail)) tail++;
  // Never cut a CRLF or a surrogate pair in two: editors cannot place a position inside either.
  while (head > 0 && splitsPair(current, head)) head--;
  while (tail > 0 && splitsPair(current, current.length - tail)) tail--;
  return { start: head, end: current.length - tail, text: proposed.slice(head, proposed.length - tail) };
}

/** True when offset `at` falls between "\r" and "\n", or inside a surrogate pair. */
function splitsPair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return (before === 13 && after === 10) || (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff);
}
