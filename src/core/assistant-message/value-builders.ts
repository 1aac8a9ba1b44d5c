/**
 * Values that grow a piece at a time while an answer streams, and can show their current trimmed
 * (or newline-framed) form without copying: pieces are joined with `+`, which V8 keeps as a rope, and
 * the few characters that trimming might remove are held apart instead of sliced off at every read.
 */
import { isWs } from "./tool-tags";

const LF = 0x0a;
const CR = 0x0d;

/** `trim(all pushed text + extra)` — for text blocks and ordinary parameters. */
export class TrimmedValue {
  /** From the first to the last non-whitespace character pushed so far. */
  private body = "";
  /** Whitespace pushed after `body`; it only counts once something else follows it. */
  private trail = "";

  push(piece: string): void {
    if (piece === "") return;
    let from = 0;
    if (this.body === "") {
      while (from < piece.length && isWs(piece.charCodeAt(from))) from++;
      if (from === piece.length) return;
    }
    let last = piece.length - 1;
    while (last >= from && isWs(piece.charCodeAt(last))) last--;
    if (last < from) {
      this.trail += piece;
      return;
    }
    const kept = from === 0 && last === piece.length - 1 ? piece : piece.slice(from, last + 1);
    this.body = this.trail === "" ? this.body + kept : this.body + this.trail + kept;
    this.trail = last === piece.length - 1 ? "" : piece.slice(last + 1);
  }

  /** The trimmed value as if `extra` (a short, not yet attributed tail) had been pushed too. */
  view(extra = ""): string {
    if (extra === "") return this.body;
    if (this.body === "") return extra.trim();
    const tail = extra.trimEnd();
    return tail === "" ? this.body : this.body + this.trail + tail;
  }
}

/** The pushed text less one leading and one trailing newline (LF or CRLF) — for raw parameters. */
export class RawValue {
  /** Until we know whether the value opens with a newline: what has arrived (at most a lone CR). */
  private lead: string | null = "";
  private acc = "";
  /** A trailing "\r", "\n" or "\r\n" kept out of `acc`: it may be the newline to drop. */
  private tail = "";

  push(piece: string): void {
    if (piece === "") return;
    if (this.lead !== null) {
      const start = this.lead + piece;
      if (start === "\r") {
        this.lead = start;
        return;
      }
      this.lead = null;
      const drop = start.charCodeAt(0) === LF ? 1 : start.charCodeAt(0) === CR && start.charCodeAt(1) === LF ? 2 : 0;
      piece = drop === 0 ? start : start.slice(drop);
      if (piece === "") return;
    }
    const n = piece.length;
    const lastChar = piece.charCodeAt(n - 1);
    if (lastChar === LF) {
      if (n === 1 && this.tail === "\r") {
        this.tail = "\r\n";
      } else {
        const keep = n >= 2 && piece.charCodeAt(n - 2) === CR ? 2 : 1;
        this.acc += this.tail + piece.slice(0, n - keep);
        this.tail = keep === 2 ? "\r\n" : "\n";
      }
    } else if (lastChar === CR) {
      this.acc += this.tail + piece.slice(0, n - 1);
      this.tail = "\r";
    } else {
      this.acc = this.tail === "" ? this.acc + piece : this.acc + this.tail + piece;
      this.tail = "";
    }
  }

  /** Appends another value's text as it was pushed (it must start with `<`, as a closing tag does). */
  absorb(other: RawValue): void {
    if (this.lead !== null || other.lead !== null) {
      this.push(other.pushed());
      return;
    }
    this.acc = this.acc + this.tail + other.acc;
    this.tail = other.tail;
  }

  /** The value as if `extra` had been pushed too; `extra` must not end in a newline. */
  view(extra = ""): string {
    if (this.lead !== null) return this.lead + extra;
    if (extra !== "") return this.acc + this.tail + extra;
    return this.tail === "\r" ? this.acc + "\r" : this.acc;
  }

  /** The value of this text followed by `other`'s (which starts with `<`). */
  viewJoined(other: RawValue): string {
    return (this.lead !== null ? this.lead : this.acc + this.tail) + other.view();
  }

  private pushed(): string {
    return this.lead !== null ? this.lead : this.acc + this.tail;
  }
}
