/**
 * Reads a file as read_file shows it, for the tool and for the @-mentions alike: numbered lines
 * (`12|text`), capped by lines and bytes with a note saying how to read on; PDF, Word and
 * notebooks as their extracted text (documents.ts); binary files refused.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import { documentKind, extractDocumentText, noTextNote } from "./documents";
import { assertStillLandsAt, type ResolvedToolPath } from "./paths";
import { ToolError } from "./tool-error";

export const MAX_LINES = 2000;
export const MAX_BYTES = 256 * 1024;
const BINARY_PROBE_BYTES = 8192;

export interface LineRange {
  readonly start: number;
  readonly end: number;
}

interface Excerpt {
  readonly lines: { n: number; text: string }[];
  /** Why reading stopped before the range ended, if it did. */
  readonly cut?: "lines" | "bytes" | "long_line";
  /** Lines in the file; known only when the read reached its end. */
  readonly total?: number;
}

/** Reads what was checked, as read_file shows it: numbered lines, capped, with a note at the cut. */
export async function readTarget(target: ResolvedToolPath, range: LineRange, signal: AbortSignal): Promise<string> {
  // What is read is what was checked: the real path, unless a link moved it meanwhile.
  assertStillLandsAt(target);
  const kind = documentKind(target.real);
  if (kind !== undefined) {
    const text = await extractDocumentText(target.real, kind, target.relative, signal);
    if (text.trim() === "") return noTextNote(target.relative, kind);
    return formatExcerpt(target.relative, range, await takeLines(text.split(/\r?\n/), range));
  }
  if (await looksBinary(target.real)) {
    throw new ToolError("invalid_param", `${target.relative} is a binary file; read_file only reads text files, PDF, .docx and .ipynb.`);
  }
  const excerpt = await readLines(target.real, range, signal);
  return formatExcerpt(target.relative, range, excerpt);
}

/** A text file's `content` as a read of `range` shows it, to compare with what an earlier read returned. */
export async function readTextOf(relative: string, content: string, range: LineRange): Promise<string> {
  // Lines as readline splits them; its last line ends at the final newline, with no empty line after it.
  const lines = content.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return formatExcerpt(relative, range, await takeLines(lines, range));
}

/** Text files have no NUL bytes; nearly every binary format has some near the start. */
async function looksBinary(absolute: string): Promise<boolean> {
  const handle = await open(absolute, "r");
  try {
    const probe = Buffer.alloc(BINARY_PROBE_BYTES);
    const { bytesRead } = await handle.read(probe, 0, BINARY_PROBE_BYTES, 0);
    return probe.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** Streams the file, so a huge file costs only what is shown. */
async function readLines(absolute: string, range: LineRange, signal: AbortSignal): Promise<Excerpt> {
  const stream = createReadStream(absolute, { encoding: "utf8", signal });
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    return await takeLines(reader, range);
  } finally {
    reader.close();
    stream.destroy();
  }
}

/** The lines of the range, up to the caps; `source` may be a file's lines or extracted text's. */
async function takeLines(source: AsyncIterable<string> | Iterable<string>, range: LineRange): Promise<Excerpt> {
  const lines: { n: number; text: string }[] = [];
  let n = 0;
  let bytes = 0;
  for await (const raw of source) {
    n++;
    if (n < range.start) continue;
    if (n > range.end) return { lines };
    const text = n === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (lines.length === MAX_LINES) return { lines, cut: "lines" };
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size <= MAX_BYTES) {
      lines.push({ n, text });
      bytes += size;
    } else if (lines.length === 0) {
      lines.push({ n, text: Buffer.from(text).subarray(0, MAX_BYTES).toString() });
      return { lines, cut: "long_line" };
    } else {
      return { lines, cut: "bytes" };
    }
  }
  return { lines, total: n };
}

function formatExcerpt(relative: string, range: LineRange, excerpt: Excerpt): string {
  const { lines, cut, total } = excerpt;
  const last = lines.at(-1);
  if (last === undefined) {
    if (total === 0) return `(${relative} is empty)`;
    throw new ToolError("invalid_param", `start_line ${range.start} is past the end of ${relative}, which has ${total} lines.`);
  }
  // The cheapest form the model still reads reliably: no padding, no spaces around the bar.
  const body = lines.map(({ n, text }) => `${n}|${text}`).join("\n");
  return cut === undefined ? body : `${body}\n\n${cutNote(cut, lines[0]?.n ?? 1, last.n)}`;
}

function cutNote(cut: NonNullable<Excerpt["cut"]>, first: number, last: number): string {
  const more = `To read on, call read_file again with start_line=${last + 1} (and end_line to choose how far).`;
  if (cut === "long_line") return `[Line ${last} is longer than ${MAX_BYTES / 1024} KB and was cut there. ${more}]`;
  const limit = cut === "lines" ? `${MAX_LINES} lines` : `${MAX_BYTES / 1024} KB`;
  return `[Output cut at ${limit}: showing lines ${first}-${last}, and the file goes on. ${more}]`;
}
