/**
 * `@git-changes` (the working tree against HEAD: the status and the diff of tracked files) and
 * `@<hash>` (a commit's message and diff), through real git (simple-git). Files the guard
 * ignores (secret files, .tandemignore) are left out of both, by name, before git is asked for
 * a diff: their content never leaves git. Diffs are bounded, and a cut says so.
 */
import { devNull } from "node:os";
import * as path from "node:path";
import { simpleGit, type SimpleGit } from "simple-git";
import type { PathGuard } from "../ignore/path-guard";
import { cutText } from "../files/cut-text";
import { errorText } from "../util/error-text";
import { mentionBlock } from "./mention-block";
import { notIncluded } from "./mention-files";

export const MAX_DIFF_BYTES = 100 * 1024;
/** Files named to git at most (each is an argument of one command). */
const MAX_FILES = 500;
/** Git's empty tree: the base of a repository that has no commit yet. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const DIFF_OPTIONS = ["--no-color", "--no-ext-diff", "--no-textconv", "--no-renames"];

/**
 * The repository's own settings must not make Tandem run a program: a command (or a planted
 * `commondir`, `config.worktree`) may have set a file-system monitor, hooks, an external diff or a
 * pager there, which git would run outside the sandbox. These win over any repository setting.
 * simple-git refuses such settings unless allowed by name; these values only switch them off.
 */
const NO_PROGRAMS = ["core.fsmonitor=false", `core.hooksPath=${devNull}`, "diff.external=", "core.pager=cat"];
const SWITCHING_OFF = { allowUnsafeFsMonitor: true, allowUnsafeHooksPath: true, allowUnsafeDiffExternal: true, allowUnsafePager: true } as const;

export interface GitMentionDeps {
  readonly cwd: string;
  readonly guard: PathGuard;
  readonly signal: AbortSignal;
}

interface Repository {
  readonly git: SimpleGit;
  /** The repository's top folder: git's paths are relative to it. */
  readonly top: string;
}

export async function gitChangesBlock(deps: GitMentionDeps): Promise<string> {
  const repo = await openRepository(deps);
  if (typeof repo === "string") return mentionBlock("git_changes", {}, notIncluded(repo));
  try {
    const status = parseStatus(await repo.git.raw(["status", "--porcelain=v1", "-z", "--no-renames", "--untracked-files=all"]));
    const shownStatus = status.filter((entry) => !isIgnored(repo, entry.path, deps.guard));
    if (shownStatus.length === 0) return mentionBlock("git_changes", {}, "No changes: the working tree matches HEAD.");
    const base = (await hasHead(repo.git)) ? "HEAD" : EMPTY_TREE;
    const names = splitZ(await repo.git.raw(["diff", base, "--name-only", "-z", ...DIFF_OPTIONS]));
    const diff = await diffOf(repo, ["diff", base, ...DIFF_OPTIONS], names, deps.guard);
    const statusText = shownStatus.map((entry) => `${entry.code} ${entry.path}`).join("\n");
    return mentionBlock("git_changes", {}, [`Status:\n${statusText}`, diff].filter(Boolean).join("\n\n"));
  } catch (error) {
    if (deps.signal.aborted) throw error;
    return mentionBlock("git_changes", {}, notIncluded(`git failed: ${errorText(error)}`));
  }
}

export async function commitBlock(hash: string, deps: GitMentionDeps): Promise<string> {
  const repo = await openRepository(deps);
  if (typeof repo === "string") return mentionBlock("commit", { hash }, notIncluded(repo));
  let full: string;
  try {
    full = (await repo.git.raw(["rev-parse", "--verify", "--quiet", "--end-of-options", `${hash}^{commit}`])).trim();
  } catch {
    full = "";
  }
  if (!/^[0-9a-f]{40,64}$/.test(full)) return mentionBlock("commit", { hash }, notIncluded(`there is no commit ${hash} in this repository (or the short hash is ambiguous).`));
  try {
    const message = await repo.git.raw(["show", "-s", "--format=commit %H%nAuthor: %an <%ae>%nDate:   %ad%n%n%B", full]);
    const names = splitZ(await repo.git.raw(["show", "--format=", "--name-only", "-z", ...DIFF_OPTIONS, full]));
    const diff = await diffOf(repo, ["show", "--format=", ...DIFF_OPTIONS, full], names, deps.guard);
    return mentionBlock("commit", { hash: full }, [message.trim(), diff].filter(Boolean).join("\n\n"));
  } catch (error) {
    if (deps.signal.aborted) throw error;
    return mentionBlock("commit", { hash }, notIncluded(`git failed: ${errorText(error)}`));
  }
}

/** A repository the workspace is in, or why there is none. */
async function openRepository(deps: GitMentionDeps): Promise<Repository | string> {
  const git = simpleGit({ baseDir: deps.cwd, abort: deps.signal, config: NO_PROGRAMS, unsafe: SWITCHING_OFF });
  try {
    const top = (await git.raw(["rev-parse", "--show-toplevel"])).trim();
    return top ? { git, top } : "the workspace is not in a git repository.";
  } catch {
    return "the workspace is not in a git repository (or git is not installed).";
  }
}

async function hasHead(git: SimpleGit): Promise<boolean> {
  try {
    await git.raw(["rev-parse", "--verify", "HEAD"]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The diff of `names` but those the guard ignores, bounded. Each kept path is given to git
 * literally (`:(top,literal)`), so a name with glob characters means only itself.
 */
async function diffOf(repo: Repository, command: string[], names: readonly string[], guard: PathGuard): Promise<string> {
  const kept = names.filter((name) => !isIgnored(repo, name, guard));
  const notes: string[] = [];
  const left = names.length - kept.length;
  if (left > 0) notes.push(`[${left} ignored or secret ${left === 1 ? "file" : "files"} left out of the diff.]`);
  if (kept.length > MAX_FILES) notes.push(`[The diff shows the first ${MAX_FILES} of ${kept.length} changed files.]`);
  if (kept.length === 0) return notes.join("\n");
  const diff = await repo.git.raw([...command, "--", ...kept.slice(0, MAX_FILES).map((name) => `:(top,literal)${name}`)]);
  const shown = cutText(diff, MAX_DIFF_BYTES);
  if (shown.cut) notes.push(`[Diff cut at ${MAX_DIFF_BYTES / 1024} KB: it is ${Math.round(Buffer.byteLength(diff) / 1024)} KB in all.]`);
  return [`Diff:\n${shown.text.trimEnd()}`, ...notes].join("\n\n");
}

function isIgnored(repo: Repository, name: string, guard: PathGuard): boolean {
  return guard.isIgnored(path.join(repo.top, name));
}

/** `git status --porcelain=v1 -z` entries (renames are off, so each entry is one path). */
function parseStatus(output: string): { code: string; path: string }[] {
  return splitZ(output).map((entry) => ({ code: entry.slice(0, 2), path: entry.slice(3) }));
}

function splitZ(output: string): string[] {
  return output.split("\0").filter((entry) => entry !== "");
}
