/**
 * Whether checkpoints can work here: git must be installed and recent enough. Where it is not,
 * checkpoints are off and the task runs without them; the reason is one sentence for the notice.
 */
import { tmpdir } from "node:os";
import { errorText } from "../util/error-text";
import { runGit } from "./git-process";

export type CheckpointsAvailability = { available: true; gitVersion: string } | { available: false; reason: string };

/** `init --initial-branch` (2.28), `update-ref --stdin` with start/prepare/commit (2.27), `add --pathspec-from-file` (2.26). */
export const MINIMUM_GIT_VERSION = [2, 28] as const;

export interface GitOptions {
  /** The git program; default "git" on the PATH. */
  gitBinary?: string;
}

/** Each git found good, by program and PATH: the service asks before the store opens, and the panel opens one per restore. */
const goodGit = new Map<string, Promise<CheckpointsAvailability>>();

/** Asks a git once; an answer of "not available" is not kept, so a git installed since is seen next time. */
export function checkpointsAvailability(options: GitOptions = {}): Promise<CheckpointsAvailability> {
  const binary = options.gitBinary ?? "git";
  const key = `${binary}\0${process.env.PATH ?? ""}`;
  let known = goodGit.get(key);
  if (known === undefined) {
    known = askGit(binary);
    goodGit.set(key, known);
    void known.then((answer) => {
      if (!answer.available) goodGit.delete(key);
    });
  }
  return known;
}

async function askGit(binary: string): Promise<CheckpointsAvailability> {
  let output: string;
  try {
    output = await runGit(["--version"], { cwd: tmpdir(), binary });
  } catch (error) {
    const text = errorText(error);
    if (/ENOENT|not found|cannot find/i.test(text)) return { available: false, reason: "Checkpoints are off: git is not installed (or not on the PATH)." };
    return { available: false, reason: `Checkpoints are off: git could not be run (${text}).` };
  }
  const match = /git version (\d+)\.(\d+)(\S*)/.exec(output);
  if (!match) return { available: false, reason: `Checkpoints are off: git did not say which version it is ("${output.trim()}").` };
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const version = `${major}.${minor}${match[3] ?? ""}`;
  const [needMajor, needMinor] = MINIMUM_GIT_VERSION;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    return { available: false, reason: `Checkpoints are off: git ${version} is older than ${needMajor}.${needMinor}, which they need.` };
  }
  return { available: true, gitVersion: version };
}
