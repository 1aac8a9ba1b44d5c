/**
 * read_file: shows a text file (or a range of it) with line numbers, so the model can cite
 * and edit exact lines. Output is capped; the note at the cut says how to read on. PDF, Word
 * and notebook files are shown as their extracted text, numbered and capped the same way
 * (the reader is core/files/read-text.ts, which the @-mentions share).
 */
import { stat } from "node:fs/promises";
import { assertNotIgnored } from "../../files/ignored-path";
import { touchedPaths, type ResolvedToolPath } from "../../files/paths";
import { MAX_BYTES, MAX_LINES, readTarget, type LineRange } from "../../files/read-text";
import { param } from "./params";
import { defineTool, ToolError, type ReadRecord, type ToolResult } from "./types";

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
      run: async () => onceInContext({ kind: "ok", content: await readTarget(target, { start, end }, ctx.signal) }, target, { start, end }, ctx.reads),
    };
  },
});

/**
 * The same text the conversation already holds (same file, same range, nothing changed) is not
 * sent again: the model gets a short note pointing at its earlier copy, unless the text is shorter.
 */
function onceInContext(result: ToolResult, target: ResolvedToolPath, range: LineRange, reads: ReadRecord | undefined): ToolResult {
  if (!reads || result.kind !== "ok" || typeof result.content !== "string") return result;
  const earlier = reads.willReturn({ file: target.real, start: range.start, end: range.end, shown: target.relative }, result.content);
  if (!earlier) return result;
  const note = `[${target.relative} is unchanged since your read of it in request ${earlier.round}: that copy is still in the conversation above, so it is not repeated here.]`;
  // A small file costs less than the note about it.
  return note.length < result.content.length ? { kind: "ok", content: note } : result;
}

async function requireFile(real: string, shown: string): Promise<void> {
  const stats = await stat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new ToolError("not_found", `File not found: ${shown}`);
    throw error;
  });
  if (!stats.isFile()) throw new ToolError("invalid_param", `${shown} is not a file (it is a folder or a device).`);
}
