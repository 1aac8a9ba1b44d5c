/**
 * Keeps a command's output within fixed bounds however much it prints: the first lines (the head,
 * where errors about the command itself appear) and the last lines (a ring buffer: where results
 * and summaries appear), with a marker for what was left out between them. Terminal noise is
 * cleaned up as lines complete: colour codes are removed and a carriage return starts the line
 * over, so a progress bar shows only its last state.
 */

export interface OutputLimits {
  /** Lines kept from the start. */
  readonly headLines: number;
  /** UTF-8 bytes kept from the start; the head closes at whichever limit comes first. */
  readonly headBytes: number;
  /** Lines kept from the end. */
  readonly tailLines: number;
  /** UTF-8 bytes kept from the end. */
  readonly tailBytes: number;
  /** Longer lines are cut, with a note saying how much. */
  readonly lineChars: number;
}

export const DEFAULT_OUTPUT_LIMITS: Readonly<OutputLimits> = {
  headLines: 200,
  headBytes: 24_000,
  tailLines: 300,
  tailBytes: 36_000,
  lineChars: 2_000,
};

export class OutputBuffer {
  private readonly head: string[] = [];
  private headBytes = 0;
  private headClosed = false;
  private readonly tail: Ring;
  private omitted = 0;
  private line = "";
  private lineCut = 0;
  /** The last chunk ended in "\r": a "\n" next makes it a line end, anything else a line restart. */
  private pendingReturn = false;

  constructor(private readonly limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value < 1) throw new Error(`OutputBuffer: ${name} must be a whole number from 1 up; got ${value}`);
    }
    this.tail = new Ring(limits.tailLines);
  }

  append(text: string): void {
    if (this.pendingReturn && text) {
      this.pendingReturn = false;
      if (text.startsWith("\n")) {
        this.endLine();
        text = text.slice(1);
      } else this.restartLine();
    }
    let start = 0;
    for (const match of text.matchAll(/\r\n|\n|\r/g)) {
      this.addToLine(text.slice(start, match.index));
      start = match.index + match[0].length;
      if (match[0] !== "\r") this.endLine();
      else if (start === text.length) this.pendingReturn = true;
      else this.restartLine();
    }
    this.addToLine(text.slice(start));
  }

  /** True when nothing but whitespace has been printed. */
  get isBlank(): boolean {
    return this.head.every((l) => !l.trim()) && this.tail.isEmpty() && this.omitted === 0 && !clean(this.line).trim();
  }

  /** Lines dropped between head and tail so far. */
  get omittedLines(): number {
    return this.omitted;
  }

  /** The kept output: head, the omission marker, tail, and the unfinished last line. */
  render(): string {
    const parts = [...this.head];
    if (this.omitted > 0) parts.push(`[… ${this.omitted} line${this.omitted === 1 ? "" : "s"} omitted …]`);
    parts.push(...this.tail.items());
    const last = this.finishedLine();
    if (last) parts.push(last);
    return parts.join("\n");
  }

  private addToLine(fragment: string): void {
    const room = this.limits.lineChars - this.line.length;
    if (fragment.length <= room) {
      this.line += fragment;
      return;
    }
    this.line += fragment.slice(0, Math.max(0, room));
    this.lineCut += fragment.length - Math.max(0, room);
  }

  private restartLine(): void {
    this.line = "";
    this.lineCut = 0;
  }

  private finishedLine(): string {
    const text = clean(this.line);
    return this.lineCut > 0 ? `${text} [… line cut: ${this.lineCut} more characters]` : text;
  }

  private endLine(): void {
    const text = this.finishedLine();
    this.restartLine();
    const size = Buffer.byteLength(text) + 1;
    if (!this.headClosed && this.head.length < this.limits.headLines && this.headBytes + size <= this.limits.headBytes) {
      this.head.push(text);
      this.headBytes += size;
      return;
    }
    // Once a line misses the head, later lines go to the tail too, so the order stays true.
    this.headClosed = true;
    this.omitted += this.tail.push(text, size, this.limits.tailBytes);
  }
}

/** The last lines, bounded by count and bytes, without shifting arrays for every line. */
class Ring {
  private readonly slots: { text: string; size: number }[] = [];
  private start = 0;
  private count = 0;
  private bytes = 0;

  constructor(private readonly capacity: number) {}

  /** Adds a line; returns how many old lines were dropped to make room. */
  push(text: string, size: number, maxBytes: number): number {
    let dropped = 0;
    if (this.count === this.capacity) dropped += this.dropOldest();
    this.slots[(this.start + this.count) % this.capacity] = { text, size };
    this.count++;
    this.bytes += size;
    // The newest line always stays, even alone over the byte limit (lines are capped anyway).
    while (this.bytes > maxBytes && this.count > 1) dropped += this.dropOldest();
    return dropped;
  }

  isEmpty(): boolean {
    return this.count === 0;
  }

  items(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.slots[(this.start + i) % this.capacity]?.text ?? "");
  }

  private dropOldest(): number {
    const oldest = this.slots[this.start];
    this.bytes -= oldest?.size ?? 0;
    this.start = (this.start + 1) % this.capacity;
    this.count--;
    return 1;
  }
}

// Escape sequences (colours, cursor moves, window titles) and other control characters a terminal
// would interpret; tabs stay. A sequence cut off at the end of a line is removed too.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROLS = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)|\x1b\[[0-?]*[ -/]*(?:[@-~]|$)|\x1b[@-Z\\-_]?|[\x00-\x08\x0b-\x1f\x7f]/g;

function clean(line: string): string {
  return line.replace(TERMINAL_CONTROLS, "");
}
