/**
 * list_files: the files and folders in a folder, optionally all the way down. Respects
 * .gitignore and .tandemignore, never walks into dependency or VCS folders, and is capped so a
 * huge tree costs a bounded answer.
 */
import { realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { assertNotIgnored } from "./ignored-path";
import { walkFolder, type WalkResult } from "./list-files-walk";
import { param } from "./params";
import { touchedPaths } from "./paths";
import { isWithin } from "../../util/real-paths";
import { defineTool, ToolError } from "./types";

export const LIST_FILES_LIMIT = 200;

export const listFilesTool = defineTool({
  name: "list_files",
  description:
    'List the files and folders in a folder; folder names end with "/". With recursive=true it lists everything ' +
    `below the folder, breadth-first, up to ${LIST_FILES_LIMIT} entries. Entries ignored by .gitignore or ` +
    ".tandemignore are left out, and dependency or version-control folders (node_modules, .git, …) are shown " +
    "but not walked into. Don't use it to check that a file you just wrote exists: the write's result says so.",
  params: [
    param.path("path", "Folder to list, relative to the working directory.", { required: true }),
    param.boolean("recursive", '"true" to list everything below the folder; "false" (default) for its direct contents.'),
  ],
  readOnly: true,
  runsWhenCutOff: true,
  approval: "read",
  example: "<list_files>\n<path>src</path>\n<recursive>true</recursive>\n</list_files>",
  async prepare({ path: target, recursive = false }, ctx) {
    await requireFolder(target.absolute, target.relative);
    assertNotIgnored(ctx.ignore, target, true);
    if (recursive) await refuseWholeDisk(target.absolute, target.relative);
    const walk = await walkFolder({ cwd: ctx.cwd, start: target.absolute, recursive, limit: LIST_FILES_LIMIT, guard: ctx.ignore, signal: ctx.signal });
    const listing = formatListing(ctx.cwd, walk);
    return {
      approval: {
        message: { tool: "list_files", path: target.relative, content: listing, outsideWorkspace: target.outsideWorkspace },
        paths: touchedPaths(target),
      },
      run: () => Promise.resolve({ kind: "ok", content: listing }),
    };
  },
});

async function requireFolder(absolute: string, shown: string): Promise<void> {
  const stats = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new ToolError("not_found", `Folder not found: ${shown}`);
    throw error;
  });
  if (!stats.isDirectory()) throw new ToolError("invalid_param", `${shown} is a file, not a folder; read it with read_file.`);
}

/** A recursive walk of / or the home folder would read the whole disk to show 200 lines. */
async function refuseWholeDisk(absolute: string, shown: string): Promise<void> {
  const real = await realpath(absolute);
  const home = await realpath(homedir()).catch(() => homedir());
  if (real === path.parse(real).root || real === home) {
    const which = real === home ? "the home folder" : "the file system root";
    throw new ToolError(
      "not_allowed",
      `${shown} is ${which}; listing it recursively would walk the whole disk. List it with recursive=false, or list a smaller folder recursively.`,
    );
  }
}

/** Sorted paths (relative to the workspace, absolute outside it) and notes on what is missing (the environment details' listing too). */
export function formatListing(cwd: string, walk: WalkResult, limit = LIST_FILES_LIMIT): string {
  const lines = walk.entries
    .map(({ absolute, isFolder }) => {
      const shown = isWithin(cwd, absolute) ? path.relative(cwd, absolute).split(path.sep).join("/") : absolute;
      return isFolder ? `${shown}/` : shown;
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const notes: string[] = [];
  if (walk.truncated) {
    notes.push(`[Only the first ${limit} entries are shown; the listing goes breadth-first, so the upper levels come first. List a sub-folder to see more.]`);
  }
  if (walk.hiddenByIgnoreFile > 0) notes.push(`[${countOf(walk.hiddenByIgnoreFile, "entry", "entries")} hidden by .tandemignore.]`);
  if (walk.hiddenSecrets > 0) notes.push(`[${countOf(walk.hiddenSecrets, "file that looks like it holds secrets", "files that look like they hold secrets")} hidden.]`);
  if (walk.unreadable.length > 0) notes.push(`[Could not read: ${walk.unreadable.join("; ")}]`);
  const body = lines.length > 0 ? lines.join("\n") : "(no files found)";
  return notes.length > 0 ? `${body}\n\n${notes.join("\n")}` : body;
}

function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
