/**
 * Runs git for the checkpoint store, each command a process of its own (spawn, no shell).
 * Commands on a shadow repository always name its git dir, work tree and index in the
 * environment, so no command can fall back to the person's own `.git`; the person's global and
 * system git configuration is switched off (the shadow's own config says everything that
 * matters: no hooks, no signing, no filters, no line-end conversion), and none of the caller's
 * GIT_* variables reach git.
 *
 * Plain child_process rather than simple-git: a restore or a save is a dozen short commands, and
 * simple-git's queue and plugins cost a millisecond or two each, besides a 50 ms wait after any
 * command that printed nothing.
 */
import { spawn } from "node:child_process";
import { devNull } from "node:os";
import type { Readable } from "node:stream";
import { errorText } from "../util/error-text";
import { decodeBytes, encodeText } from "./path-bytes";

/** Besides GIT_*, the variables git would obey; none of them is ours to pass on. */
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

/**
 * Runs one git command and returns its output as text; an error names the command and git's message.
 * Names in the output that are not UTF-8 keep their bytes (path-bytes.ts), as do those in a text input.
 */
export async function runGit(args: readonly string[], client: GitClientOptions, options: GitCommandOptions = {}): Promise<string> {
  return decodeBytes(await runCommand(args, client, options));
}

/** `git cat-file ARGS`, its output as bytes (blob contents are not text). */
export function runCatFile(args: readonly string[], client: GitClientOptions, options: GitCommandOptions = {}): Promise<Buffer> {
  return runCommand(["cat-file", ...args], client, options);
}

async function runCommand(args: readonly string[], client: GitClientOptions, options: GitCommandOptions): Promise<Buffer> {
  const git = startCommand(args, client, options);
  const stdout: Buffer[] = [];
  git.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  await git.finished;
  return Buffer.concat(stdout);
}

/** A git command whose output is read as it comes. */
export interface StreamingGit {
  readonly stdout: Readable;
  /** Resolves when git exited 0, after its output ended; else rejects, naming the command and git's message. */
  readonly finished: Promise<void>;
  /** Ends git early (its `finished` then rejects). */
  stop(): void;
}

function startCommand(args: readonly string[], client: GitClientOptions, options: GitCommandOptions): StreamingGit {
  const failed = (message: string) => new Error(`git ${commandName(args)} failed: ${message.trim()}`);
  const child = spawn(client.binary, args, { cwd: client.cwd, env: environment(client), stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    child.on("error", (error) => reject(failed(errorText(error)))); // not started: ENOENT, EACCES
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(failed(Buffer.concat(stderr).toString("utf8") || (signal ? `killed by ${signal}` : `exit code ${code}`)));
    });
  });
  // git may exit before reading all its input (it failed): its exit code says so, not the EPIPE.
  child.stdin.on("error", () => undefined);
  child.stdin.end(typeof options.input === "string" ? encodeText(options.input) : options.input);
  return { stdout: child.stdout, finished, stop: () => child.kill() };
}

/** The subcommand, past any `-c name=value` before it. */
function commandName(args: readonly string[]): string {
  let i = 0;
  while (args[i] === "-c") i += 2;
  return args[i] ?? "";
}

function environment(client: GitClientOptions): Record<string, string> {
  const variables: Record<string, string> = client.personalConfig
    ? { ...client.variables }
    : { GIT_CONFIG_GLOBAL: devNull, GIT_CONFIG_NOSYSTEM: "1", ...client.variables };
  variables.GIT_TERMINAL_PROMPT = "0";
  return { ...cleanEnvironment(), ...variables };
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

  /** Starts a command whose output is read as it comes (`cat-file --batch` for a restore). */
  start(args: readonly string[], options: GitCommandOptions = {}): StreamingGit {
    return startCommand(args, this.client(), options);
  }

  private client(): GitClientOptions {
    const { gitDir, workTree } = this.paths;
    return { cwd: workTree, binary: this.binary, variables: { GIT_DIR: gitDir, GIT_WORK_TREE: workTree, GIT_INDEX_FILE: this.indexFile } };
  }
}
