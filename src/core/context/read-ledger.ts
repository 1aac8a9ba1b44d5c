/**
 * Which file reads are in the conversation, so the same text is not carried twice.
 *
 * read_file tells the ledger what it is about to return, by file (its real path) and range.
 * - The same range, same text, whose earlier copy is still in the history: read_file answers
 *   with a short note instead (`unchanged`), and an edit's result shows only what it changed (`holds`).
 * - Otherwise the new text goes out in full; once it is in the history (`settle`, after the
 *   round's results were added) the earlier copy of that range is superseded. It stays as it was
 *   while the context has room: an earlier message that changes moves the point where the
 *   provider's prompt cache stops matching back to it, and everything after is paid for again.
 *   When the conversation must shrink anyway (condensing, truncation), `shortenSuperseded`
 *   replaces every superseded copy by a short note at once. Reads of other ranges are left alone.
 *
 * Each entry points at its block (the object itself and where it is), so checking that a copy
 * is still there costs O(1), and settling a round costs the blocks that round added. A history
 * rewritten by condensing or truncation moves or drops blocks: their entries then no longer
 * check out and are forgotten when next looked at.
 */
import { createHash } from "node:crypto";
import type { ApiMessage, ContentBlock } from "../../api/types";

export interface ReadKey {
  /** The file's real path (links resolved). */
  readonly file: string;
  readonly start: number;
  /** Infinity: to the end of the file. */
  readonly end: number;
  /** The path as the model named it, for the notes. */
  readonly shown: string;
}

/** What an earlier, superseded copy of a read becomes. */
export const replacedReadNote = (shown: string) => `[content of ${shown} replaced: this file is read again later; see the newer read]`;

interface Entry {
  readonly key: string;
  readonly shown: string;
  readonly digest: string;
  readonly round: number;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly block: ContentBlock;
}

interface Pending {
  readonly key: string;
  readonly digest: string;
  readonly round: number;
  readonly shown: string;
}

/** What the history of a task offers the ledger: its messages, and replacing one in place (one journal line). */
export interface LedgerHistory {
  readonly apiHistory: readonly ApiMessage[];
  replaceApiMessage(index: number, message: ApiMessage): void;
}

export class ReadLedger {
  private readonly entries = new Map<string, Entry>();
  /** This round's full reads, by the text they return, until it reaches the history. */
  private pending = new Map<string, Pending>();
  /** Earlier copies a newer read of the same range superseded, kept whole until the context must shrink. */
  private superseded: Entry[] = [];

  constructor(
    private readonly history: LedgerHistory,
    private readonly round: () => number,
  ) {}

  /**
   * A read about to return `text`: the round of the earlier read whose identical copy is still in
   * the history (answer short), or undefined (the text goes out in full and is recorded).
   */
  willReturn(read: ReadKey, text: string): { readonly round: number } | undefined {
    const key = keyOf(read);
    const digest = digestOf(text);
    const earlier = this.liveEntry(key);
    if (earlier && earlier.digest === digest) return { round: earlier.round };
    this.pending.set(text, { key, digest, round: this.round(), shown: read.shown });
    return undefined;
  }

  /** The round of the read whose identical copy is still in the history, without recording anything (an edit's result asks). */
  holds(read: Omit<ReadKey, "shown">, text: string): { readonly round: number } | undefined {
    const earlier = this.liveEntry(keyOf(read));
    return earlier && earlier.digest === digestOf(text) ? { round: earlier.round } : undefined;
  }

  /** The round's results are in the history's last message: record its reads and shorten the copies they supersede. */
  settle(): void {
    if (this.pending.size === 0) return;
    const history = this.history.apiHistory;
    const messageIndex = history.length - 1;
    const message = history[messageIndex];
    const pending = this.pending;
    this.pending = new Map();
    if (!message || typeof message.content === "string") return;
    message.content.forEach((block, blockIndex) => {
      const read = pending.get(textOf(block) ?? "");
      if (!read) return;
      const earlier = this.liveEntry(read.key);
      if (earlier) this.superseded.push(earlier);
      this.entries.set(read.key, { ...read, messageIndex, blockIndex, block });
    });
  }

  /**
   * The context must shrink: every superseded copy still in the history becomes a short note, in
   * one go (the cache breaks there anyway). A copy shorter than its note stays. Returns how many.
   */
  shortenSuperseded(): number {
    const superseded = this.superseded;
    this.superseded = [];
    let shortened = 0;
    for (const entry of superseded) {
      const note = replacedReadNote(entry.shown);
      if (!this.isLive(entry) || (textOf(entry.block)?.length ?? 0) <= note.length) continue;
      this.shorten(entry, note);
      shortened += 1;
    }
    return shortened;
  }

  /**
   * After the history was rewritten (condensed or truncated): finds each recorded block where it
   * is now, and forgets those that are gone. O(history), and only on those rare rewrites.
   */
  rebase(): void {
    const where = new Map<ContentBlock, { messageIndex: number; blockIndex: number }>();
    this.history.apiHistory.forEach((message, messageIndex) => {
      if (typeof message.content !== "string") message.content.forEach((block, blockIndex) => where.set(block, { messageIndex, blockIndex }));
    });
    for (const [key, entry] of this.entries) {
      const now = where.get(entry.block);
      if (now) this.entries.set(key, { ...entry, ...now });
      else this.entries.delete(key);
    }
    this.superseded = this.superseded.flatMap((entry) => {
      const now = where.get(entry.block);
      return now ? [{ ...entry, ...now }] : [];
    });
  }

  /** The entry for `key` if its block is still where it was; a moved or dropped one is forgotten. */
  private liveEntry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.isLive(entry)) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private isLive(entry: Entry): boolean {
    const message = this.history.apiHistory[entry.messageIndex];
    const there = message && typeof message.content !== "string" ? message.content[entry.blockIndex] : undefined;
    return there === entry.block;
  }

  /** Replaces an earlier copy's text with a note. The other blocks keep their identity, so their entries stay valid. */
  private shorten(entry: Entry, note: string): void {
    const message = this.history.apiHistory[entry.messageIndex];
    if (!message || typeof message.content === "string") return;
    const content = [...message.content];
    const block = entry.block;
    content[entry.blockIndex] = block.type === "tool_result" ? { ...block, content: note } : { type: "text", text: note };
    this.history.replaceApiMessage(entry.messageIndex, { ...message, content });
  }
}

function keyOf(read: Omit<ReadKey, "shown">): string {
  return `${read.start}:${read.end}:${read.file}`;
}

function digestOf(text: string): string {
  return createHash("sha256").update(text).digest("base64");
}

function textOf(block: ContentBlock): string | undefined {
  if (block.type === "text") return block.text;
  if (block.type === "tool_result" && typeof block.content === "string") return block.content;
  return undefined;
}
