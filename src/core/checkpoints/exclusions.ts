/**
 * The exclusion rules of a shadow repository, as the text of its `info/exclude`, composed on
 * each operation from: the workspace's own `.git/info/exclude` (rules the person's git keeps
 * beside the repository, not in the tree), Tandem's ignore files (`.tandemignore`,
 * `.clineignore`: gitignore syntax relative to the root, handed to git as they are), the
 * submodule paths of `.gitmodules`, and the built-in list below. The workspace's `.gitignore`
 * files at every level apply by themselves: git reads them in the work tree. Rules that need a
 * look at each file (size, nested repositories, LFS) are workspace-scan.ts's.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { IGNORE_FILE_NAMES } from "../ignore/ignore-file-names";
import { decodeBytes, fsPath } from "./path-bytes";

/** Installed from a lock file, often huge, never edited by hand. */
export const DEPENDENCY_FOLDERS = [
  "node_modules/",
  "bower_components/",
  "jspm_packages/",
  ".pnpm-store/",
  ".yarn/cache/",
  ".yarn/unplugged/",
  "vendor/",
  ".venv/",
  "venv/",
  "__pycache__/",
  ".tox/",
  ".nox/",
  ".eggs/",
  "*.egg-info/",
  "Pods/",
  "Carthage/Build/",
  ".bundle/",
  "elm-stuff/",
  ".dart_tool/",
] as const;

/** Made by a build from the sources, so restoring the sources restores them. */
export const BUILD_OUTPUTS = [
  "dist/",
  "build/",
  "out/",
  "target/",
  ".next/",
  ".nuxt/",
  ".svelte-kit/",
  ".output/",
  ".turbo/",
  ".vercel/",
  ".angular/",
  ".expo/",
  "coverage/",
  ".nyc_output/",
  "*.pyc",
  "*.pyo",
  "*.class",
  "*.o",
] as const;

/** Tools' caches and the operating system's litter. */
export const CACHES = [
  ".cache/",
  ".parcel-cache/",
  ".gradle/",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  ".sass-cache/",
  ".eslintcache",
  ".terraform/",
  ".serverless/",
  ".DS_Store",
  "Thumbs.db",
] as const;

/**
 * The text of the shadow's `info/exclude` for this workspace now. The person's global excludes
 * file is read by git itself (core.excludesFile); a hash of it is written here too, so that any
 * change of rules shows as a change of this file (stage-workspace.ts then untracks what they exclude).
 * The sources are read as bytes (path-bytes.ts): a pattern naming a file that is not UTF-8 keeps
 * its bytes, so git matches it against that file.
 */
export async function composeExcludeFile(workspaceRoot: string, personalExcludesFile: string): Promise<string> {
  const [personal, gitmodules, global, ...ignoreFiles] = await Promise.all([
    readPersonalRepositoryExclude(workspaceRoot),
    readIfPresent(path.join(workspaceRoot, ".gitmodules")),
    readBytesIfPresent(personalExcludesFile),
    ...IGNORE_FILE_NAMES.map((name) => readIfPresent(path.join(workspaceRoot, name))),
  ]);
  const sections: string[] = [
    "# Written by Tandem for its checkpoints, from the sources named below; rewritten when they change.",
    `# git also reads ${personalExcludesFile}: ${global === undefined ? "absent" : `sha256 ${createHash("sha256").update(global).digest("hex").slice(0, 16)}`}`,
  ];
  if (personal !== undefined) sections.push("# From the workspace's .git/info/exclude", personal);
  IGNORE_FILE_NAMES.forEach((name, i) => {
    const text = ignoreFiles[i];
    if (text !== undefined) sections.push(`# From ${name}`, text);
  });
  const submodules = gitmodules === undefined ? [] : submodulePaths(gitmodules);
  if (submodules.length > 0) sections.push("# Submodules (.gitmodules)", ...submodules.map((p) => `/${p}/`));
  sections.push("# Built in: dependency folders", ...DEPENDENCY_FOLDERS);
  sections.push("# Built in: build outputs", ...BUILD_OUTPUTS);
  sections.push("# Built in: caches", ...CACHES);
  return `${sections.join("\n")}\n`;
}

/** `path = …` lines of a .gitmodules file. */
export function submodulePaths(gitmodules: string): string[] {
  const paths: string[] = [];
  for (const match of gitmodules.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
    const value = (match[1] ?? "").replace(/^"(.*)"$/, "$1").replace(/^\/+|\/+$/g, "");
    if (value !== "") paths.push(value);
  }
  return paths;
}

/**
 * The person's `info/exclude`, read only. `.git` may be a folder or, in a linked worktree or a
 * submodule, a file naming the git dir; a worktree's rules live in its common dir.
 */
async function readPersonalRepositoryExclude(workspaceRoot: string): Promise<string | undefined> {
  const dotGit = path.join(workspaceRoot, ".git");
  const pointer = await readIfPresent(dotGit); // undefined for the usual folder (EISDIR)
  let gitDir = dotGit;
  if (pointer !== undefined) {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(pointer);
    if (!match?.[1]) return undefined;
    gitDir = path.resolve(workspaceRoot, match[1]);
    const common = await readIfPresent(path.join(gitDir, "commondir"));
    if (common !== undefined) gitDir = path.resolve(gitDir, common.trim());
  }
  return readIfPresent(path.join(gitDir, "info", "exclude"));
}

async function readIfPresent(file: string): Promise<string | undefined> {
  const bytes = await readBytesIfPresent(file);
  return bytes === undefined ? undefined : decodeBytes(bytes);
}

async function readBytesIfPresent(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(fsPath(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Not there, a folder, or a link that leads nowhere: no rules from it.
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ELOOP") return undefined;
    throw error;
  }
}
