/**
 * The .gitignore rules in force inside one folder of a walk: the folder's own .gitignore plus
 * those of its ancestors, deepest last (so a nested `!pattern` can re-include). Shared by
 * list_files, search_files' JavaScript fallback and list_code_definition_names.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import type { Ignore } from "ignore";
import { compileIgnoreRules, ruleVerdict } from "../ignore/ignore-rules";
import { isWithin } from "../util/real-paths";

interface Level {
  /** The folder holding the .gitignore; its patterns are relative to it. */
  readonly base: string;
  readonly rules: Ignore;
}

export class GitignoreChain {
  private constructor(private readonly levels: readonly Level[]) {}

  static readonly empty = new GitignoreChain([]);

  /**
   * The rules for a walk starting at `start`: the .gitignore files from the workspace root
   * down to it (only its own when it lies outside the workspace). A start folder that is
   * itself ignored is being listed on purpose, so the rules that ignore it are dropped.
   */
  static async forStart(workspaceRoot: string, start: string): Promise<GitignoreChain> {
    const folders = isWithin(workspaceRoot, start) ? foldersFromTo(workspaceRoot, start) : [start];
    let chain = GitignoreChain.empty;
    for (const folder of folders) chain = await chain.enter(folder);
    return chain;
  }

  /** True when git would ignore the entry (folders are tested as folders). */
  isIgnored(absolutePath: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const level of this.levels) {
      const relative = path.relative(level.base, absolutePath).split(path.sep).join("/");
      if (relative === "" || relative.startsWith("../")) continue;
      const verdict = ruleVerdict(level.rules, isFolder ? `${relative}/` : relative);
      if (verdict !== undefined) ignored = verdict === "ignored";
    }
    return ignored;
  }

  /**
   * The chain for a folder the walk goes into. Levels that ignore the folder itself are
   * dropped: the walk only enters it because a deeper rule (or the person) re-included it.
   */
  async enter(folder: string): Promise<GitignoreChain> {
    const kept = this.levels.filter((level) => {
      const relative = path.relative(level.base, folder).split(path.sep).join("/");
      return relative === "" || ruleVerdict(level.rules, `${relative}/`) !== "ignored";
    });
    const own = await readGitignore(folder);
    return new GitignoreChain(own ? [...kept, { base: folder, rules: own }] : kept);
  }
}

/** `from`, then each folder below it on the way to `to` (inclusive). */
function foldersFromTo(from: string, to: string): string[] {
  const parts = path.relative(from, to).split(path.sep).filter(Boolean);
  return [from, ...parts.map((_, i) => path.join(from, ...parts.slice(0, i + 1)))];
}

async function readGitignore(folder: string): Promise<Ignore | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(folder, ".gitignore"), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Missing, or a folder named .gitignore, or unreadable: git would see no rules there either.
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "EACCES") return undefined;
    throw error;
  }
  // A line the package cannot compile is skipped; git would not honour it either.
  return compileIgnoreRules(text, path.join(folder, ".gitignore")).rules;
}
