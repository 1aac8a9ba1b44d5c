/** The shapes of the command policy and its defaults. */
import type { CommandFiles } from "./command-files";
import type { DenyRule } from "./deny-rules";
import type { DiskView } from "./workspace-paths";

/** Which rule decided: stable names, for tests, counting and the person's note. */
export type DecisionRule =
  /** allow: every command is read-only and allow-listed, and reads only inside the workspace. */
  | "read-only"
  /** ask: something on the line is not a read-only allow-listed command. */
  | "not-read-only"
  /** ask: a read-only command reads outside the workspace, and that switch is off. */
  | "outside-workspace"
  /** ask: the line holds characters a terminal acts on (a control character, `!!` history expansion). */
  | "hidden-text"
  /** ask: the shell parser rejects the line. */
  | "unparsed"
  /** ask: the model asked for approval. */
  | "model-request"
  /** deny, YOLO without a sandbox: the guard cannot read what the line would do. */
  | "unreadable"
  /** deny: the built-in deny list. */
  | DenyRule;

export interface CommandDecision {
  readonly decision: "allow" | "ask" | "deny";
  readonly reason: string;
  readonly rule: DecisionRule;
  /** The simple commands found, as written, in the order they start. */
  readonly commands: string[];
  /** What the line names and writes, for the ignore-file and guard-file checks. */
  readonly files: CommandFiles;
}

export interface CommandPolicy {
  /**
   * Read-only commands that may run without asking, as leading words: "ls" matches `ls -la`,
   * "git status" matches `git status --short`. Guards still catch writing options
   * (`find -delete`, `sed -i`, `sort -o`, ...).
   */
  allowList: string[];
  /** The built-in deny list holds even in YOLO mode unless this is switched off. */
  denyGuard: boolean;
  /** Where commands run; protects it from `rm -rf .` and friends. */
  workspaceRoot?: string;
  /** The workspace's other folders (multi-root): reading there is reading inside, and they are protected like the root. */
  otherRoots?: readonly string[];
  /** Defaults to os.homedir(). */
  homeDir?: string;
  /**
   * The shell that runs the line (a path such as /bin/zsh, or a name). Unknown counts as maybe
   * zsh, whose glob qualifiers can run code.
   */
  shell?: string;
  /** The line is typed into an interactive shell (a terminal): history expansion applies. Default true. */
  interactiveShell?: boolean;
  /**
   * Nobody reviews what runs: YOLO mode, or "run all commands". With the guard on and no sandbox,
   * what the guard cannot read is refused.
   */
  yolo?: boolean;
  /** Commands run inside an OS sandbox that confines them to the workspace. Default false (none exists yet). */
  sandboxed?: boolean;
  /** "Read files outside the workspace" is on: read-only commands may read there too. Default false. */
  readOutsideWorkspace?: boolean;
  /** Lets the policy follow links; without it paths are judged as written. */
  disk?: DiskView;
}

export const DEFAULT_ALLOW_LIST: readonly string[] = [
  // Looking at files and folders.
  "ls", "cat", "head", "tail", "wc", "file", "stat", "du", "df", "tree", "pwd", "cd",
  "basename", "dirname", "realpath", "readlink", "which",
  // Searching and filtering (guards catch the writing options of find, sed, sort, uniq, rg).
  "grep", "egrep", "fgrep", "rg", "find", "sed", "sort", "uniq", "cut", "tr", "nl", "column",
  "diff", "cmp", "jq", "xargs",
  // Printing and testing.
  "echo", "printf", "true", "false", "test", "[", "[[", "date", "whoami", "id", "uname",
  // git, read-only subcommands only.
  "git status", "git diff", "git log", "git show", "git blame", "git ls-files", "git rev-parse",
  "git grep", "git branch", "git remote", "git describe", "git stash list",
];

export const DEFAULT_COMMAND_POLICY: CommandPolicy = {
  allowList: [...DEFAULT_ALLOW_LIST],
  denyGuard: true,
};
