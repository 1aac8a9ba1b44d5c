/**
 * replace_in_file: edits an existing file with SEARCH/REPLACE blocks (the engine is
 * core/assistant-message/diff.ts). The diff is applied before anything is asked, so a diff that
 * does not fit goes straight back to the model and the file is never touched; after approval the
 * write is atomic, and the model gets the edited text back to base its next edit on. In an
 * editor (host.diffView) the edited file streams into its diff view and is saved through it.
 */
import { readFile, stat } from "node:fs/promises";
import { applyDiff, constructNewFileContent, DiffApplyError, type DiffApplication } from "../../assistant-message/diff";
import { writeFileAtomic } from "../../storage/atomic-write";
import { assertNotIgnored, ignoredRefusal } from "../../files/ignored-path";
import { readTextOf } from "../../files/read-text";
import { describeSavedEdit } from "./edit-preview";
import { param } from "./params";
import { assertStillLandsAt, resolveToolPath, touchedPaths, type ResolvedToolPath } from "../../files/paths";
import { defineTool, ToolError, type ReadRecord, type ToolContext, type ToolResult } from "./types";

/**
 * Files up to this many lines come back whole after an edit, unless the conversation holds a
 * whole read of the text the edit changed; longer ones, and those, as their changed regions.
 */
export const WHOLE_FILE_LINES = 400;
const CONTEXT_LINES = 3;

const DESCRIPTION = `Edit an existing file by replacing exact lines with new ones, using SEARCH/REPLACE blocks. Use it for targeted changes; use write_to_file to create a file or to rewrite most of one.

Each block (every marker on a line of its own):
------- SEARCH
[lines copied exactly from the file]
=======
[the lines that take their place]
+++++++ REPLACE

Rules:
- SEARCH must repeat the file's lines exactly: whole lines, with their indentation, comments and blank lines, and without read_file's line numbers. If there is no exact match, lines are compared ignoring leading/trailing whitespace, and a block of 3 or more lines may match by its first and last lines alone (same line count); anything else fails.
- Keep SEARCH blocks short and unique: a few lines, plus just enough unchanged context to match exactly one place. A SEARCH that matches several places is refused.
- One edit per block, and list blocks in file order. Several blocks in one call are fine, but no two may touch the same line.
- Leave REPLACE empty to delete lines. To move code, delete it in one block and insert it in another.
- If any block fails, nothing is applied: the error names the block, quotes the closest text in the file, and says which blocks matched. Fix the diff and send all its blocks again.
- The result shows the edited text as it now is; base any later edit on it.`;

const EXAMPLE = `<replace_in_file>
<path>src/greet.ts</path>
<diff>
------- SEARCH
export function greet(name: string) {
  return "Hello " + name;
}
=======
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
+++++++ REPLACE
</diff>
</replace_in_file>`;

export const replaceInFileTool = defineTool({
  name: "replace_in_file",
  description: DESCRIPTION,
  params: [
    param.path("path", "Path of the file to edit, relative to the working directory.", { required: true }),
    param.text("diff", "One or more SEARCH/REPLACE blocks, in the format described above.", { required: true }),
  ],
  readOnly: false,
  approval: "edit",
  example: EXAMPLE,
  async presentPartial(params, ctx) {
    if (!params.path) return;
    await ctx.say("tool", undefined, { tool: { tool: "replace_in_file", path: params.path, content: params.diff ?? "" }, partial: true });
    if (ctx.host.diffView && params.diff) await previewReplace(params.path, params.diff, ctx);
  },
  async abandon(_params, ctx) {
    await ctx.previews.abandon();
  },
  async prepare({ path: target, diff }, ctx) {
    assertNotIgnored(ctx.ignore, target);
    const approval = {
      message: { tool: "replace_in_file", path: target.relative, content: diff, outsideWorkspace: target.outsideWorkspace },
      paths: touchedPaths(target),
    };
    // Outside the workspace nothing is read before approval, as with read_file.
    if (target.outsideWorkspace) return { approval, run: () => replaceOnDisk(target, diff, undefined, undefined) };
    const original = await readTextFile(target);
    const proposed = computeEdit(diff, original, target);
    const { diffView } = ctx.host;
    if (!diffView) return { approval, run: () => replaceOnDisk(target, diff, original, ctx.reads) };
    // In an editor the person reviews the edited file in the diff view and may change it further
    // before it is saved; the model then sees the file as saved, and what the person changed.
    const review = await ctx.previews.review(diffView, target, original, proposed.content);
    const run = async (): Promise<ToolResult> => {
      const saved = await review.save();
      const notes = describeSavedEdit(target.relative, saved);
      // The person's own changes in the diff view lie outside the edit's regions: then the whole file.
      const read = saved.content === proposed.content ? await wholeReadOf(target, original, ctx.reads) : undefined;
      return ok([resultText(target, { ...proposed, content: saved.content }, read), notes].filter(Boolean).join("\n\n"));
    };
    return { approval, run, discard: () => review.revert() };
  },
});

/** Without a diff view, once approved: the diff applied to the file as it is by then, written atomically. */
async function replaceOnDisk(target: ResolvedToolPath, diff: string, original: string | undefined, reads: ReadRecord | undefined): Promise<ToolResult> {
  assertStillLandsAt(target);
  // The person may have edited the file while deciding: apply the approved diff to what is there now.
  const current = await readTextFile(target);
  const edit = computeEdit(diff, current, target, original !== undefined && current !== original);
  try {
    await writeFileAtomic(target.real, edit.content);
  } catch (error) {
    throw new ToolError("failed", `Could not write ${target.relative}: ${(error as Error).message}`);
  }
  return ok(resultText(target, edit, await wholeReadOf(target, current, reads)));
}

/** The round of a whole read of `before` still in the conversation, if there is one. */
async function wholeReadOf(target: ResolvedToolPath, before: string, reads: ReadRecord | undefined): Promise<{ readonly round: number } | undefined> {
  if (!reads) return undefined;
  const whole = { start: 1, end: Number.POSITIVE_INFINITY };
  return reads.holds({ file: target.real, ...whole }, await readTextOf(target.relative, before, whole));
}

function ok(content: string): ToolResult {
  return { kind: "ok", content };
}

/**
 * The file as it will be once the blocks streamed so far are applied. No preview for a path
 * that does not resolve, is ignored, lies outside the workspace or is not an editable text
 * file (prepare reports those), nor while the diff changes nothing yet.
 */
async function previewReplace(relativePath: string, partialDiff: string, ctx: ToolContext): Promise<void> {
  const target = await resolveToolPath(ctx.roots, relativePath).catch(() => undefined);
  if (!target || target.outsideWorkspace || ignoredRefusal(ctx.ignore, target)) return;
  await ctx.previews.showPartial(ctx.host.diffView, target.real, () => readTextFile(target), (original) => {
    if (original === undefined) return undefined;
    const proposed = tryConstruct(partialDiff, original);
    return proposed === original ? undefined : proposed;
  });
}

/** A partial diff may not apply yet (a SEARCH still streaming): then the view keeps its last text. */
function tryConstruct(partialDiff: string, original: string): string | undefined {
  try {
    return constructNewFileContent(partialDiff, original, false);
  } catch (error) {
    if (error instanceof DiffApplyError) return undefined;
    throw error;
  }
}

/** Read at the real path (links followed), which is what the checks judged. */
async function readTextFile(target: ResolvedToolPath): Promise<string> {
  const stats = await stat(target.real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") {
      throw new ToolError("not_found", `File not found: ${target.relative}. replace_in_file only edits existing files; to create a new file, use write_to_file.`);
    }
    throw error;
  });
  if (!stats.isFile()) throw new ToolError("invalid_param", `${target.relative} is not a file (it is a folder or a device).`);
  const bytes = await readFile(target.real);
  if (bytes.includes(0)) throw new ToolError("invalid_param", `${target.relative} is a binary file; replace_in_file only edits text files.`);
  const text = bytes.toString("utf8");
  // Writing back text decoded from invalid UTF-8 would corrupt every byte the decoder replaced.
  if (!Buffer.from(text, "utf8").equals(bytes)) {
    throw new ToolError("invalid_param", `${target.relative} is not valid UTF-8 text; replace_in_file cannot edit it without damaging it.`);
  }
  return text;
}

/**
 * The final application; a diff that does not fit is the model's mistake and leaves the file
 * alone. The failure quotes the file's closest text, except for a file outside the workspace:
 * its text reaches the model only through read_file, whose switch ("read files outside the
 * workspace") differs from the one that approved the edit.
 */
function computeEdit(diff: string, original: string, target: ResolvedToolPath, changedMeanwhile = false): DiffApplication {
  const { relative } = target;
  let edit: DiffApplication;
  try {
    edit = applyDiff(diff, original, true);
  } catch (error) {
    if (!(error instanceof DiffApplyError)) throw error;
    const lead = changedMeanwhile ? `${relative} changed on disk while the edit awaited approval, and the diff no longer fits it.\n\n` : "";
    const why = target.outsideWorkspace ? unquotedFailure(relative) : error.message;
    throw new ToolError("invalid_param", `${lead}${why}\n\n${relative} was not changed.`);
  }
  if (edit.content === original) {
    throw new ToolError("invalid_param", `The diff changes nothing: every REPLACE part equals the text it would replace. ${relative} was not changed.`);
  }
  return edit;
}

function unquotedFailure(relative: string): string {
  return (
    `The diff was not applied: it does not fit ${relative}. That file is outside the workspace, so its text is not quoted here; ` +
    "read it with read_file (which asks the person) and send the diff again."
  );
}

function resultText(target: ResolvedToolPath, edit: DiffApplication, read: { readonly round: number } | undefined): string {
  const { relative } = target;
  const count = edit.blocks.length === 1 ? "1 block" : `${edit.blocks.length} blocks`;
  const parts = [`The edit to ${relative} was applied (${count}).`];
  const loose = edit.blocks.filter((b) => b.strategy === "trimmed" || b.strategy === "anchors");
  if (loose.length > 0) {
    const which = loose.map((b) => b.number).join(", ");
    const shifted = loose.filter((b) => b.reindented).map((b) => b.number);
    const shiftNote = shifted.length > 0 ? `; REPLACE was shifted to the file's indentation in block${shifted.length > 1 ? "s" : ""} ${shifted.join(", ")}` : "";
    parts.push(`Block${loose.length > 1 ? "s" : ""} ${which} did not match exactly (whitespace or inner lines differed)${shiftNote}. Check the indentation below.`);
  }
  parts.push(target.outsideWorkspace ? `${relative} is outside the workspace, so its text is not shown; read it with read_file to see it.` : currentText(relative, edit, read));
  return parts.join("\n");
}

/**
 * The whole file when short and the conversation has no whole read of it, else the changed
 * regions with a little context, numbered like read_file.
 */
function currentText(relative: string, edit: DiffApplication, read: { readonly round: number } | undefined): string {
  const lines = edit.content.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return `${relative} is now empty.`;
  const note = "Line numbers are shown for reference only; they are not part of the file. Base any further edit on this text.";
  if (lines.length <= WHOLE_FILE_LINES && !read) {
    return `Here is the whole file as it now is. ${note}\n<final_file_content path="${relative}">\n${numbered(lines, [{ start: 0, end: lines.length }])}\n</final_file_content>`;
  }
  const regions = changedRegions(edit, lines.length);
  const spans = regions.map((r) => `${r.start + 1}-${r.end}`).join(", ");
  const rest = read ? ` The rest of the file is as your read of it in request ${read.round} shows (line numbers after an edited region shift by the lines it added or removed).` : "";
  return (
    `The file has ${lines.length} lines; here are the edited regions (with ${CONTEXT_LINES} lines of context) as they now are.${rest} ${note}\n` +
    `<final_file_content path="${relative}" lines="${spans}">\n${numbered(lines, regions)}\n</final_file_content>`
  );
}

interface Span {
  start: number;
  end: number;
}

function changedRegions(edit: DiffApplication, total: number): Span[] {
  const spans = edit.blocks
    .map((b) => ({ start: Math.max(0, b.result.start - CONTEXT_LINES), end: Math.min(total, b.result.end + CONTEXT_LINES) }))
    .sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** In read_file's form (`12|text`), so the model can copy from it as from a read. */
function numbered(lines: readonly string[], regions: readonly Span[]): string {
  return regions.map((r) => lines.slice(r.start, r.end).map((text, k) => `${r.start + k + 1}|${text}`).join("\n")).join("\n…\n");
}
