/**
 * list_files: the files and folders in a folder, optionally all the way down. Respects
 * .gitignore and .tandemignore, never walks into dependency or VCS folders, and is capped so a
 * huge tree costs a bounded answer.
 */
import { realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { assertNotIgnored } from "../../files/ignored-path";
import { formatListing, LIST_FILES_LIMIT } from "../../files/listing";
import { walkFolder } from "../../files/walk";
import { param } from "./params";
import { touchedPaths } from "../../files/paths";
import { defineTool, ToolError } from "./types";


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
    const walk = await walkFolder({ cwd: ctx.roots.baseOf(target.absolute), start: target.absolute, recursive, limit: LIST_FILES_LIMIT, guard: ctx.ignore, signal: ctx.signal });
    const listing = formatListing((absolute) => ctx.roots.shown(absolute), walk);
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
