/**
 * search_files: a regex search over a folder (or one file) with a line of context around each
 * match, grouped by file. Runs ripgrep when there is one, else a JavaScript search that skips
 * the same files; ignored files never show up either way.
 */
import { stat } from "node:fs/promises";
import { assertNotIgnored } from "../../files/ignored-path";
import { param } from "./params";
import { touchedPaths } from "../../files/paths";
import { searchWithJavaScript } from "./search-files-js";
import { expandBraces } from "./search-files-glob";
import { resolveRipgrep, searchWithRipgrep, type SearchRequest } from "./search-files-rg";
import { SEARCH_RESULT_LIMIT, SearchResults } from "./search-files-results";
import { defineTool, ToolError } from "./types";

export const searchFilesTool = defineTool({
  name: "search_files",
  description:
    "Search the files in a folder for a regular expression (Rust/ripgrep syntax). Each match is shown with the " +
    "line before and after it, grouped by file, with line numbers (`12:` a match, `11-` context). " +
    `At most ${SEARCH_RESULT_LIMIT} matches are returned. Files ignored by .gitignore or .tandemignore, ` +
    "binary files and dependency folders (node_modules, …) are skipped.",
  params: [
    param.path("path", "Folder (or file) to search, relative to the working directory.", { required: true }),
    param.text("regex", "The regular expression to look for (Rust regex syntax, as ripgrep uses).", { required: true }),
    param.text("file_pattern", "Glob the files must match, e.g. *.ts or *.{ts,tsx}. Default: all files."),
  ],
  readOnly: true,
  runsWhenCutOff: true,
  approval: "read",
  example: "<search_files>\n<path>src</path>\n<regex>TODO|FIXME</regex>\n<file_pattern>*.ts</file_pattern>\n</search_files>",
  async prepare({ path: target, regex, file_pattern: filePattern }, ctx) {
    const stats = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new ToolError("not_found", `Not found: ${target.relative}`);
      throw error;
    });
    assertNotIgnored(ctx.ignore, target, stats.isDirectory());
    const pattern = filePattern?.trim() ?? "";
    const request: SearchRequest = {
      cwd: ctx.roots.baseOf(target.absolute),
      shown: (absolute) => ctx.roots.shown(absolute),
      target: target.absolute,
      regex,
      fileGlobs: pattern === "" ? [] : expandBraces(pattern),
      guard: ctx.ignore,
      signal: ctx.signal,
    };
    const results = new SearchResults();
    const rg = await resolveRipgrep(ctx.host.ripgrep);
    if (rg !== undefined) await searchWithRipgrep(rg, request, results);
    else await searchWithJavaScript(request, results);
    const scope = `in ${target.relative}${pattern === "" ? "" : ` (files matching ${pattern})`}`;
    const output = results.format(request.shown, `for /${request.regex}/ ${scope}`);
    return {
      approval: {
        message: { tool: "search_files", path: target.relative, content: output, outsideWorkspace: target.outsideWorkspace },
        paths: touchedPaths(target),
      },
      run: () => Promise.resolve({ kind: "ok", content: output }),
    };
  },
});
