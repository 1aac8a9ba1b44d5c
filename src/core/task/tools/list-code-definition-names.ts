/**
 * list_code_definition_names: an outline of the source code in a folder (its top-level files)
 * or in one file — the classes, functions, methods, types … each with its line number — so the
 * model can find its way around without reading whole files. Parsed with tree-sitter.
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { assertNotIgnored } from "../../files/ignored-path";
import { formatOutline, outlineFile } from "./list-code-definition-names-outline";
import { GitignoreChain } from "../../files/gitignore-chain";
import { param } from "./params";
import { touchedPaths, type ResolvedToolPath } from "../../files/paths";
import { languageForFile, SUPPORTED_EXTENSIONS } from "./tree-sitter/languages";
import { defineTool, ToolError, type ToolContext } from "./types";
import type { WorkspaceRoots } from "../../util/workspace-roots";

/** Files parsed per call at most: enough for an outline, bounded in time. */
export const MAX_FILES_SCANNED = 50;
/** Bigger files are skipped: likely generated, and slow to parse. */
export const MAX_SOURCE_BYTES = 1024 * 1024;
const SEPARATOR = "|----";

export const listCodeDefinitionNamesTool = defineTool({
  name: "list_code_definition_names",
  description:
    "Outline source code: the classes, functions, methods, interfaces, types, structs, enums, traits … defined in " +
    "one file, or in the files directly inside a folder (not its sub-folders), each with its line number. " +
    `Understands TypeScript, JavaScript, Python, Go, Rust, Java, C and C++. At most ${MAX_FILES_SCANNED} files are read.`,
  params: [param.path("path", "A source file, or a folder whose top-level files to outline, relative to the working directory.", { required: true })],
  readOnly: true,
  runsWhenCutOff: true,
  approval: "read",
  example: "<list_code_definition_names>\n<path>src</path>\n</list_code_definition_names>",
  async prepare({ path: target }, ctx) {
    const stats = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new ToolError("not_found", `Not found: ${target.relative}`);
      throw error;
    });
    assertNotIgnored(ctx.ignore, target, stats.isDirectory());
    const output = stats.isDirectory()
      ? await outlineFolder(target.absolute, target.relative, ctx)
      : await outlineOneFile(target, ctx.roots, stats.size);
    return {
      approval: {
        message: { tool: "list_code_definition_names", path: target.relative, content: output, outsideWorkspace: target.outsideWorkspace },
        paths: touchedPaths(target),
      },
      run: () => Promise.resolve({ kind: "ok", content: output }),
    };
  },
});

/** Parsed at the real path (links followed), which is what the checks judged. */
async function outlineOneFile(target: ResolvedToolPath, roots: WorkspaceRoots, size: number): Promise<string> {
  const shown = target.relative;
  const spec = languageForFile(target.real);
  if (!spec) {
    throw new ToolError("invalid_param", `${shown} is not a source file this tool understands (it reads ${SUPPORTED_EXTENSIONS.join(" ")}).`);
  }
  if (size > MAX_SOURCE_BYTES) throw new ToolError("invalid_param", `${shown} is larger than ${MAX_SOURCE_BYTES / 1024} KB; read parts of it with read_file.`);
  const definitions = await outlineFile(target.real, spec);
  return definitions.length > 0 ? formatOutline(roots.shown(target.absolute), definitions) : `No definitions found in ${shown}.`;
}

async function outlineFolder(folder: string, shown: string, ctx: ToolContext): Promise<string> {
  const { files, hidden } = await sourceFilesIn(folder, ctx);
  const notes: string[] = [];
  if (hidden > 0) notes.push(`[Left out ${hidden} ${hidden === 1 ? "file" : "files"} (listed in .tandemignore, or named like a secret file).]`);
  if (files.length > MAX_FILES_SCANNED) notes.push(`[Only the first ${MAX_FILES_SCANNED} of ${files.length} source files were read; outline single files for the rest.]`);
  const blocks: string[] = [];
  const tooBig: string[] = [];
  for (const file of files.slice(0, MAX_FILES_SCANNED)) {
    ctx.signal.throwIfAborted();
    if ((await stat(file)).size > MAX_SOURCE_BYTES) {
      tooBig.push(path.basename(file));
      continue;
    }
    const spec = languageForFile(file);
    const definitions = spec ? await outlineFile(file, spec) : [];
    if (definitions.length > 0) blocks.push(formatOutline(ctx.roots.shown(file), definitions));
  }
  if (tooBig.length > 0) notes.push(`[Skipped files over ${MAX_SOURCE_BYTES / 1024} KB: ${tooBig.join(", ")}]`);
  let body: string;
  if (files.length === 0) body = `No source files (${SUPPORTED_EXTENSIONS.join(" ")}) directly in ${shown}; try one of its sub-folders.`;
  else if (blocks.length === 0) body = `No definitions found in the source files directly in ${shown}.`;
  else body = blocks.join(`\n${SEPARATOR}\n`);
  return [body, ...notes].join("\n\n");
}

/** The folder's own source files, sorted, without gitignored or ignored ones. */
async function sourceFilesIn(folder: string, ctx: ToolContext): Promise<{ files: string[]; hidden: number }> {
  const gitignore = await GitignoreChain.forStart(ctx.roots.baseOf(folder), folder);
  const dirents: Dirent[] = await readdir(folder, { withFileTypes: true });
  const files: string[] = [];
  let hidden = 0;
  for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const absolute = path.join(folder, dirent.name);
    if (!dirent.isFile() || !languageForFile(dirent.name) || gitignore.isIgnored(absolute, false)) continue;
    if (ctx.ignore.isIgnored(absolute)) hidden++;
    else files.push(absolute);
  }
  return { files, hidden };
}
