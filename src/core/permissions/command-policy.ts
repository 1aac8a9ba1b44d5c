/** The shapes of the command policy and its defaults. */

export interface CommandDecision {
  readonly decision: "allow" | "ask" | "deny";
  readonly reason: string;
  /** The simple commands found, as written, in the order they start. */
  readonly commands: string[];
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
  /** Defaults to os.homedir(). */
  homeDir?: string;
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
