/**
 * Turns what a terminal shows into plain text for the model and the chat: removes escape
 * sequences (colours, cursor moves, title changes, VS Code's OSC 633 shell-integration markers),
 * turns the pty's CRLF into LF, and drops other control characters. Sequences may be split
 * across chunks, so an unfinished one at the end of a chunk waits for the next.
 */

const ESC = "\x1b";
const BEL = "\x07";
/** An unterminated string sequence longer than this is junk, not a sequence: it is dropped. */
const MAX_PENDING = 4096;

type Scan = { readonly kind: "sequence"; readonly end: number } | { readonly kind: "incomplete" };

export class TerminalOutputCleaner {
  private pending = "";
  /** True at the start of a line, so a lone CR (progress bars) does not add empty lines. */
  private atLineStart = true;

  /** The clean text of `chunk` (possibly less, if it ends inside a sequence). */
  push(chunk: string): string {
    const text = this.pending + chunk;
    this.pending = "";
    let out = "";
    let i = 0;
    while (i < text.length) {
      const ch = text[i] as string;
      if (ch === ESC || ch === "\r") {
        const scan = ch === ESC ? scanEscape(text, i) : scanCarriageReturn(text, i);
        if (scan.kind === "incomplete") {
          this.keepPending(text.slice(i));
          break;
        }
        if (ch === "\r" && text[i + 1] !== "\n" && !this.atLineStart) {
          out += "\n"; // a lone CR starts the line over: show the new text on a line of its own
          this.atLineStart = true;
        }
        i = scan.end;
        continue;
      }
      if (ch === "\n" || ch === "\t" || !isControl(ch)) {
        out += ch;
        this.atLineStart = ch === "\n";
      }
      i++;
    }
    return out;
  }

  /**
   * Forgets an unfinished sequence held back from the last chunk (at the end of the output it
   * is a cut-off escape or a final CR, neither of which shows as text).
   */
  reset(): void {
    this.pending = "";
    this.atLineStart = true;
  }

  private keepPending(rest: string): void {
    this.pending = rest.length > MAX_PENDING ? "" : rest;
  }
}

/** One-shot cleaning of a complete text. */
export function stripTerminalSequences(text: string): string {
  return new TerminalOutputCleaner().push(text);
}

function isControl(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}

/** A CR followed by LF is the pty's line break; the LF itself is kept by the caller. */
function scanCarriageReturn(text: string, i: number): Scan {
  if (i + 1 >= text.length) return { kind: "incomplete" };
  return { kind: "sequence", end: i + 1 };
}

function scanEscape(text: string, i: number): Scan {
  const kind = text[i + 1];
  if (kind === undefined) return { kind: "incomplete" };
  switch (kind) {
    case "[":
      return scanCsi(text, i + 2);
    case "]":
      return scanString(text, i + 2, true);
    case "P": // DCS
    case "X": // SOS
    case "^": // PM
    case "_": // APC
      return scanString(text, i + 2, false);
    case "(":
    case ")":
    case "*":
    case "+":
      // Character set designation: one more character.
      return i + 2 < text.length ? { kind: "sequence", end: i + 3 } : { kind: "incomplete" };
    default:
      // Two-character sequences: ESC 7, ESC 8, ESC =, ESC >, ESC M, ESC c …
      return { kind: "sequence", end: i + 2 };
  }
}

/** CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E. */
function scanCsi(text: string, from: number): Scan {
  let j = from;
  while (j < text.length) {
    const code = text.charCodeAt(j);
    if (code >= 0x40 && code <= 0x7e) return { kind: "sequence", end: j + 1 };
    if (code < 0x20 || code > 0x3f) return { kind: "sequence", end: j }; // malformed: drop what was read
    j++;
  }
  return { kind: "incomplete" };
}

/** OSC, DCS and friends run to the string terminator ESC \ (OSC also to BEL). */
function scanString(text: string, from: number, belEnds: boolean): Scan {
  for (let j = from; j < text.length; j++) {
    const ch = text[j];
    if (belEnds && ch === BEL) return { kind: "sequence", end: j + 1 };
    if (ch === ESC) {
      if (j + 1 >= text.length) return { kind: "incomplete" };
      if (text[j + 1] === "\\") return { kind: "sequence", end: j + 2 };
    }
  }
  return { kind: "incomplete" };
}
