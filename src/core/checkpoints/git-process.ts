/**
 * Runs git through simple-git for the checkpoint store. Commands on a shadow repository always
 * name its git dir, work tree and index in the environment, so no command can fall back to the
 * person's own `.git`; the person's global and system git configuration is switched off (the
 * shadow's own config says everything that matters: no hooks, no signing, no filters, no line-end
 * conversion), and none of the caller's GIT_* variables reach git.
 *
 * simple-git waits 50 ms after a command that printed nothing (its exit-versus-close guard), so
 * the store prefers commands that always print something: `status --branch`, `--verbose`, the
 * verbs of `update-ref --stdin`, `cat-file --batch-check`.
 */
import { devNull } from "node:os";
import { simpleGit, type SimpleGit } from "simple-git";
import { errorText } from "../util/error-text";

/** The variables the store sets; simple-git refuses GIT_* variables it was not told about. */
const STORE_VARIABLES = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT"];
/** Besides GIT_*, the variables git would obey that simple-git guards; none of them is ours to pass on. */
const GUARDED_NAMES = new Set(["EDITOR", "VISUAL", "PAGER", "PREFIX", "SSH_ASKPASS"]);

export interface GitCommandOptions {
  /** Written to the command's stdin. */
  input?: string | Buffer;
}

export interface GitClientOptions {
  /** The folder git runs in. */
  cwd: string;
  /** The git program; "git" finds it on the PATH. */
  binary: string;
  /** Environment variables for this command, on top of the cleaned environment. */
  variables?: Record<string, string>;
  /** Whether the person's global git configuration applies (only to read their global excludes file). */
  personalConfig?: boolean;
}

/** Runs one git command and returns its output as text; an error names the command and git's message. */
export async function runGit(args: readonly string[], client: GitClientOptions, options: GitCommandOptions = {}): Promise<string> {
  try {
    return await gitClient(client, options).raw([...args]);
  } catch (error) {
    throw new Error(`git ${commandName(args)} failed: ${errorText(error).trim()}`);
  }
}

/** The subcommand, past any `-c name=value` before it. */
function commandName(args: readonly string[]): string {
  let i = 0;
  while (args[i] === "-c") i += 2;
  return args[i] ?? "";
}

/** `git cat-file ARGS`, its output as bytes (blob contents are not text). */
export async function runCatFile(args: readonly string[], client: GitClientOptions, options: GitCommandOptions = {}): Promise<Buffer> {
  try {
    return await gitClient(client, options).binaryCatFile([...args]);
  } catch (error) {
    throw new Error(`git cat-file failed: ${errorText(error).trim()}`);
  }
}

function gitClient(client: GitClientOptions, options: GitCommandOptions): SimpleGit {
  const { input } = options;
  const variables: Record<string, string> = client.personalConfig
    ? { ...client.variables }
    : { GIT_CONFIG_GLOBAL: devNull, GIT_CONFIG_NOSYSTEM: "1", ...client.variables };
  variables.GIT_TERMINAL_PROMPT = "0";
  return simpleGit({
    baseDir: client.cwd,
    binary: client.binary,
    trimmed: false,
    allowEnvironment: STORE_VARIABLES,
    // Each of these is the store's own doing, never input from elsewhere: GIT_CONFIG_GLOBAL names
    // the null device, `init --template=` names no template, and the binary is the caller's
    // setting, which may well contain a space (C:\Program Files\Git\...).
    unsafe: { allowUnsafeConfigPaths: true, allowUnsafeTemplateDir: true, allowUnsafeCustomBinary: true },
    input: input === undefined ? undefined : () => input,
  }).env({ ...cleanEnvironment(), ...variables });
}

/** The process environment without anything that steers git. */
function cleanEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.toUpperCase().startsWith("GIT_") || GUARDED_NAMES.has(name.toUpperCase())) continue;
    env[name] = value;
  }
  return env;
}

/** Where a shadow repository is: its git dir and the workspace it tracks. */
export interface ShadowPaths {
  readonly gitDir: string;
  readonly workTree: string;
}

/** git on one shadow repository, each command with an explicit git dir, work tree and index file. */
export class ShadowGit {
  constructor(
    readonly paths: ShadowPaths,
    readonly binary: string,
    /** The index this operation works on (its own name for the shadow's index: see checkpoint-store.ts). */
    readonly indexFile: string,
  ) {}

  run(args: readonly string[], options: GitCommandOptions = {}): Promise<string> {
    return runGit(args, this.client(), options);
  }

  catFile(args: readonly string[], options: GitCommandOptions = {}): Promise<Buffer> {
    return runCatFile(args, this.client(), options);
  }

  private client(): GitClientOptions {
    const { gitDir, workTree } = this.paths;
    return { cwd: workTree, binary: this.binary, variables: { GIT_DIR: gitDir, GIT_WORK_TREE: workTree, GIT_INDEX_FILE: this.indexFile } };
  }
}
