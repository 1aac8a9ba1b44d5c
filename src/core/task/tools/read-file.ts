/**
 * read_file: shows a text file (or a range of it) with line numbers, so the model can cite
 * and edit exact lines. Output is capped; the note at the cut says how to read on. PDF, Word
 * and notebook files are shown as their extracted text, numbered and capped the same way.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { assertNotIgnored } from "./ignored-path";
import { param } from "./params";
import { assertStillLandsAt, touchedPaths, type ResolvedToolPath } from "./paths";
import { documentKind, extractDocumentText, noTextNote } from "./read-file-documents";
import { defineTool, ToolError, type ReadRecord, type ToolResult } from "./types";

export const MAX_LINES = 2000;
export const MAX_BYTES = 256 * 1024;
const BINARY_PROBE_BYTES = 8192;

interface LineRange {
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

export const readFileTool = defineTool({
  name: "read_file",
  description:
    "Read a text file from the workspace. The result shows each line after its number and a bar (`12|text`); the number and bar are not part of the file. " +
    `Long files are cut after ${MAX_LINES} lines or ${MAX_BYTES / 1024} KB; read further with start_line/end_line. ` +
    "PDF and Word (.docx) files show their extracted text and Jupyter notebooks (.ipynb) their cells' source, numbered the same way; " +
    "other binary files are refused.",
  params: [
    param.path("path", "File path, relative to the working directory.", { required: true }),
    param.number("start_line", "First line to show (1-based). Default: 1.", { whole: true, min: 1 }),
    param.number("end_line", "Last line to show (inclusive). Default: end of file.", { whole: true, min: 1 }),
  ],
  readOnly: true,
  runsWhenCutOff: true,
  approval: "read",
  example: "<read_file>\n<path>src/main.ts</path>\n</read_file>",
  async prepare({ path: target, start_line: start = 1, end_line: end = Number.POSITIVE_INFINITY }, ctx) {
    assertNotIgnored(ctx.ignore, target);
    if (end < start) throw new ToolError("invalid_param", `end_line (${end}) is before start_line (${start}).`);
    await requireFile(target.real, target.absolute);
    return {
      approval: {
        message: { tool: "read_file", path: target.relative, content: target.absolute, outsideWorkspace: target.outsideWorkspace },
        paths: touchedPaths(target),
      },
      run: async () => onceInContext(await readTarget(target, { start, end }, ctx.signal), target, { start, end }, ctx.reads),
    };
  },
});

/** Reads what was checked, as read_file shows it (the @-mentions read files the same way). */
export async function readTarget(target: ResolvedToolPath, range: LineRange, signal: AbortSignal): Promise<ToolResult> {
  // What is read is what was checked: the real path, unless a link moved it meanwhile.
  assertStillLandsAt(target);
  const kind = documentKind(target.real);
  if (kind !== undefined) {
    const text = await extractDocumentText(target.real, kind, target.relative, signal);
    if (text.trim() === "") return { kind: "ok", content: noTextNote(target.relative, kind) };
    return { kind: "ok", content: formatExcerpt(target.relative, range, await takeLines(text.split(/\r?\n/), range)) };
  }
  if (await looksBinary(target.real)) {
    throw new ToolError("invalid_param", `${target.relative} is a binary file; read_file only reads text files, PDF, .docx and .ipynb.`);
  }
  const excerpt = await readLines(target.real, range, signal);
  return { kind: "ok", content: formatExcerpt(target.relative, range, excerpt) };
}

/**
 * The same text the conversation already holds (same file, same range, nothing changed) is not
 * sent again: the model gets a short note pointing at its earlier copy.
 */
function onceInContext(result: ToolResult, target: ResolvedToolPath, range: LineRange, reads: ReadRecord | undefined): ToolResult {
  if (!reads || result.kind !== "ok" || typeof result.content !== "string") return result;
  const earlier = reads.willReturn({ file: target.real, start: range.start, end: range.end, shown: target.relative }, result.content);
  if (!earlier) return result;
  return { kind: "ok", content: `[${target.relative} is unchanged since your read of it in request ${earlier.round}: that copy is still in the conversation above, so it is not repeated here.]` };
}

async function requireFile(real: string, shown: string): Promise<void> {
  const stats = await stat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new ToolError("not_found", `File not found: ${shown}`);
    throw error;
  });
  if (!stats.isFile()) throw new ToolError("invalid_param", `${shown} is not a file (it is a folder or a device).`);
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
