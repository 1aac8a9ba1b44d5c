/**
 * search_files without ripgrep: walks the files in the order `rg --sort path` does (depth
 * first, names in byte order), skipping what rg skips (gitignored, dependency/VCS folders,
 * binary files, symlinks), and matches each line with a JavaScript RegExp.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import ignore, { type Ignore } from "ignore";
import { GitignoreChain } from "../../files/gitignore-chain";
import { HEAVY_FOLDERS, isInsideHeavyFolder } from "../../files/walk";
import { isWithin } from "../../util/real-paths";
import type { SearchRequest } from "./search-files-rg";
import { toJavaScriptRegExp } from "./search-files-regex";
import type { SearchResults } from "./search-files-results";

/** Bigger files are skipped (with a note): reading them whole would cost too much memory. */
export const MAX_FALLBACK_FILE_BYTES = 10 * 1024 * 1024;
const BINARY_PROBE_BYTES = 8192;

interface Walk {
  readonly request: SearchRequest;
  readonly regex: RegExp;
  readonly globs: Ignore | undefined;
  readonly globBase: string;
  readonly skipHeavy: boolean;
  readonly results: SearchResults;
  tooBig: string[];
}

export async function searchWithJavaScript(request: SearchRequest, results: SearchResults): Promise<void> {
  const regex = toJavaScriptRegExp(request.regex);
  const walk: Walk = {
    request,
    regex,
    globs: request.fileGlobs.length > 0 ? ignore().add([...request.fileGlobs]) : undefined,
    // rg matches globs against paths relative to where it runs: the workspace root.
    globBase: isWithin(request.cwd, request.target) ? request.cwd : request.target,
    skipHeavy: !isInsideHeavyFolder(request.target),
    results,
    tooBig: [],
  };
  const stats = await stat(request.target);
  if (stats.isDirectory()) {
    await searchFolder(walk, request.target, await GitignoreChain.forStart(request.cwd, request.target));
  } else {
    // A file named outright is searched even if a glob or .gitignore would skip it, as rg does.
    await searchFile(walk, request.target, stats.size);
  }
  if (walk.tooBig.length > 0) {
    results.notes.push(`[Skipped files over ${MAX_FALLBACK_FILE_BYTES / 1024 / 1024} MB: ${walk.tooBig.join(", ")}]`);
  }
}

/** False once the result limit is reached: the walk stops. */
async function searchFolder(walk: Walk, folder: string, chain: GitignoreChain): Promise<boolean> {
  walk.request.signal.throwIfAborted();
  let dirents: Dirent[];
  try {
    dirents = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    walk.results.notes.push(`[Could not read ${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}]`);
    return true;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of dirents) {
    const absolute = path.join(folder, dirent.name);
    if (dirent.isSymbolicLink()) continue; // rg does not follow links either
    if (dirent.isDirectory()) {
      if ((walk.skipHeavy && HEAVY_FOLDERS.has(dirent.name)) || chain.isIgnored(absolute, true)) continue;
      if (!(await searchFolder(walk, absolute, await chain.enter(absolute)))) return false;
    } else if (dirent.isFile() && !chain.isIgnored(absolute, false) && matchesGlobs(walk, absolute)) {
      if (!(await searchFile(walk, absolute))) return false;
    }
  }
  return true;
}

function matchesGlobs(walk: Walk, absolute: string): boolean {
  if (!walk.globs) return true;
  const relative = path.relative(walk.globBase, absolute).split(path.sep).join("/");
  return walk.globs.ignores(relative);
}

async function searchFile(walk: Walk, absolute: string, knownSize?: number): Promise<boolean> {
  const { request, regex, results } = walk;
  if (request.guard.isIgnored(absolute)) return true;
  let bytes: Buffer;
  try {
    const size = knownSize ?? (await stat(absolute)).size;
    if (size > MAX_FALLBACK_FILE_BYTES) {
      walk.tooBig.push(request.shown(absolute));
      return true;
    }
    bytes = await readFile(absolute, { signal: request.signal });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Gone since the folder was read, or unreadable: rg reports such files and goes on; so do we.
    if (code !== "ENOENT" && code !== "EACCES" && code !== "EPERM") throw error;
    results.notes.push(`[Could not read ${request.shown(absolute)}: ${code}]`);
    return true;
  }
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return true; // binary, as rg judges it
  const lines = bytes.toString("utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const texts = lines.map((line) => line.replace(/\r$/, ""));
  const hits = texts.map((text) => regex.test(text));
  for (let i = 0; i < texts.length; i++) {
    if (!hits[i]) continue;
    // A neighbour that matches itself is added as a match, never as context (as rg does).
    if (i > 0 && !hits[i - 1] && !results.add(absolute, i, texts[i - 1] as string, false)) return false;
    if (!results.add(absolute, i + 1, texts[i] as string, true)) return false;
    if (i + 1 < texts.length && !hits[i + 1] && !results.add(absolute, i + 2, texts[i + 1] as string, false)) return false;
  }
  return true;
}
