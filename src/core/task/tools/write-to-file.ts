/**
 * write_to_file: creates a file or replaces its whole content, after approval. The write is
 * atomic, missing folders are created, and an existing file keeps its CRLF line endings and
 * its final newline (or lack of one). In an editor (host.diffView) the content streams into its
 * diff view, where the person may change it before it is saved (edit-preview.ts).
 */
import { mkdir, readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { writeFileAtomic } from "../../storage/atomic-write";
import { assertNotIgnored, ignoredRefusal } from "../../files/ignored-path";
import { describeSavedEdit } from "./edit-preview";
import { param } from "./params";
import { assertStillLandsAt, resolveToolPath, touchedPaths, type ResolvedToolPath } from "../../files/paths";
import { defineTool, ToolError, type ToolContext, type ToolResult } from "./types";

export const writeToFileTool = defineTool({
  name: "write_to_file",
  description:
    "Create a file, or replace an existing file's entire content. Missing folders are created. " +
    "Give the complete file: anything you leave out is gone, so never write placeholders such as " +
    '"// rest of the file unchanged".',
  params: [
    param.path("path", "File path, relative to the working directory.", { required: true }),
    param.text("content", "The complete new content of the file, as is (no code fences).", { required: true }),
  ],
  readOnly: false,
  approval: "edit",
  example: '<write_to_file>\n<path>src/greet.ts</path>\n<content>\nexport const greet = (name: string) => `Hello, ${name}!`;\n</content>\n</write_to_file>',
  async presentPartial(params, ctx) {
    if (!params.path) return;
    await ctx.say("tool", undefined, { tool: { tool: "write_to_file", path: params.path, content: params.content ?? "" }, partial: true });
    if (ctx.host.diffView && params.content) await previewWrite(params.path, params.content, ctx);
  },
  async abandon(_params, ctx) {
    await ctx.previews.abandon();
  },
  async prepare({ path: target, content: given }, ctx) {
    assertNotIgnored(ctx.ignore, target);
    // Read and written at the real path (links followed), which is what the checks judged.
    const previewed = ctx.previews.originalBefore(target.real);
    const existing = previewed ? previewed.original : await readExisting(target.real, target.relative);
    let content = matchFinalNewline(stripCodeFences(given), existing);
    if (existing !== undefined && usesCrlf(existing)) content = toCrlf(content);
    const approval = {
      message: { tool: "write_to_file", path: target.relative, content, outsideWorkspace: target.outsideWorkspace },
      paths: touchedPaths(target),
    };
    const { diffView } = ctx.host;
    // Outside the workspace nothing is touched before approval (the diff view would create the file first).
    if (!diffView || target.outsideWorkspace) return { approval, run: () => writeToDisk(target, content) };
    // In an editor the person reviews (and may change) the file in the diff view, which also saves it.
    const review = await ctx.previews.review(diffView, target, existing, content);
    return { approval, run: async () => saved(target, describeSavedEdit(target.relative, await review.save())), discard: () => review.revert() };
  },
});

async function writeToDisk(target: ResolvedToolPath, content: string): Promise<ToolResult> {
  assertStillLandsAt(target);
  try {
    await mkdir(path.dirname(target.real), { recursive: true });
    await writeFileAtomic(target.real, content);
  } catch (error) {
    throw new ToolError("failed", `Could not write ${target.relative}: ${(error as Error).message}`);
  }
  return saved(target, "");
}

function saved(target: ResolvedToolPath, notes: string): ToolResult {
  return { kind: "ok", content: [`The content was successfully saved to ${target.relative}.`, notes].filter(Boolean).join("\n\n") };
}

/**
 * The streamed content in the diff view. A path that does not resolve, an ignored one or one
 * outside the workspace gets no preview (prepare reports the first two, and asks about the third
 * in the chat only).
 */
async function previewWrite(relativePath: string, partialContent: string, ctx: ToolContext): Promise<void> {
  const target = await resolveToolPath(ctx.roots, relativePath).catch(() => undefined);
  if (!target || target.outsideWorkspace || ignoredRefusal(ctx.ignore, target)) return;
  await ctx.previews.showPartial(ctx.host.diffView, target.real, () => readExisting(target.real, target.relative), () => partialContent.replace(LEADING_FENCE, ""));
}

/** While streaming, only the opening fence of a fenced file is there to strip. */
const LEADING_FENCE = /^\s*```[\w+#.-]*[ \t]*\n/;

/** The current content, or undefined when there is no file yet. */
async function readExisting(real: string, shown: string): Promise<string | undefined> {
  try {
    if (!(await stat(real)).isFile()) {
      throw new ToolError("invalid_param", `${shown} exists and is not a file (it is a folder or a device).`);
    }
    return await readFile(real, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR") throw new ToolError("invalid_param", `A parent of ${shown} is a file, not a folder.`);
    throw error;
  }
}

const OPENING_FENCE = /^\s*```[\w+#.-]*\s*$/;
const CLOSING_FENCE = /^\s*```\s*$/;

/**
 * Models sometimes wrap the whole file in a markdown code block. Only a fence on the first
 * line AND one on the last line is removed, so fences inside the file stay.
 */
export function stripCodeFences(content: string): string {
  const lines = content.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  const last = lines.findLastIndex((line) => line.trim() !== "");
  if (first === -1 || first === last) return content;
  if (!OPENING_FENCE.test(lines[first] ?? "") || !CLOSING_FENCE.test(lines[last] ?? "")) return content;
  const inner = lines.slice(first + 1, last);
  return inner.length === 0 ? "" : `${inner.join("\n")}\n`;
}

/**
 * The parser drops the line break before `</content>`, so whether the file ends with a newline
 * is decided here: an existing file keeps what it had, a new non-empty file gets one (as editors
 * and linters expect).
 */
function matchFinalNewline(content: string, existing: string | undefined): string {
  const wantNewline = existing === undefined ? content !== "" : /\n$/.test(existing);
  const hasNewline = content.endsWith("\n");
  if (wantNewline && !hasNewline) return `${content}\n`;
  if (!wantNewline && hasNewline) return content.replace(/\r?\n$/, "");
  return content;
}

/** Judged by the first line break, which is what editors do too. */
function usesCrlf(text: string): boolean {
  const newline = text.indexOf("\n");
  return newline > 0 && text[newline - 1] === "\r";
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}
