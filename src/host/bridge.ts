/**
 * What the agent core needs from an editor, split by capability. Plain data only: paths are
 * absolute strings, nothing here mentions VS Code. `host/vscode/` implements it inside the
 * editor; `host/node/` implements it for tests and the headless runner.
 */
import type { CheckpointChange } from "../shared/checkpoints";

/** One folder of the workspace. */
export interface WorkspaceRoot {
  /** How the model and the person name it (`frontend/src/a.ts`): unique within the workspace, one path segment. */
  readonly name: string;
  /** Its absolute path. */
  readonly path: string;
}

export interface WorkspaceHost {
  /**
   * The workspace's folders, never empty; the first is the primary: commands start there and a
   * plain relative path resolves there. Read when a task starts (the set may change between tasks).
   */
  readonly roots: readonly WorkspaceRoot[];
}

export interface WindowHost {
  /** A non-blocking notice to the person outside the chat. */
  notify(level: "info" | "warning" | "error", message: string): void;
}

export interface RunCommandOptions {
  /** Absolute path of the folder the command starts in. */
  readonly cwd: string;
  /** Ends the command (and everything it started) after this long; none means no limit. */
  readonly timeoutMs?: number;
  /** Aborting ends the command and everything it started (the task's signal). */
  readonly signal: AbortSignal;
  /**
   * The command line as the model and the person know it, when `command` is a wrapper around it
   * (the OS sandbox's launcher): what a terminal shows and what `activity()` reports as its last
   * command. The wrapper itself is never shown.
   */
  readonly shownAs?: string;
}

/** How a command ended. */
export interface CommandExit {
  /** The exit code; null when the process was ended by a signal (or the host cannot tell). */
  readonly exitCode: number | null;
  /** The signal that ended the shell, e.g. "SIGTERM"; null for a normal exit or when unknown. */
  readonly signal: string | null;
  /**
   * Set when the host ended it: the timeout passed, the abort signal fired, or kill() was called.
   * The whole process group was killed in each case.
   */
  readonly stoppedBy: "timeout" | "abort" | "kill" | null;
}

/** A command started by TerminalHost.run. */
export interface RunningCommand {
  /**
   * Adds a listener for output as it arrives: stdout and stderr together, in arrival order,
   * decoded as UTF-8 (a character is never split across calls). Output is delivered on later
   * turns of the event loop, so listeners added right after run() miss nothing.
   */
  onOutput(listener: (text: string) => void): void;
  /**
   * Settles when the command has ended (normally, or killed by timeout, abort or kill()).
   * Rejects only when it could not be started at all (e.g. the folder does not exist).
   */
  readonly completion: Promise<CommandExit>;
  /** Ends the command and everything it started: its whole process group. Safe to call twice. */
  kill(): void;
}

/** The shell that runs command lines, as far as the host knows it (the command policy reads the line as it would). */
export interface TerminalShell {
  /** Its path or name (`/bin/zsh`, `bash`); undefined when the host cannot tell. */
  readonly path: string | undefined;
  /** Lines are typed into an interactive shell (a terminal): history expansion and editing keys apply. */
  readonly interactive: boolean;
}

/** A terminal as the environment details and `@terminal` see it. */
export interface TerminalActivity {
  /** The terminal's name as the person sees it. */
  readonly name: string;
  /** A command runs in it now. */
  readonly busy: boolean;
  /** The last command line run in it, when the host knows it. */
  readonly lastCommand?: string;
  /** The tail of its recent output (bounded by the host), plain text without escape sequences. */
  readonly recentOutput: string;
  /**
   * How many characters it has printed in all since the host began watching it, of which
   * `recentOutput` is the end. Lets a reader tell exactly what is new since it last looked (the
   * same output printed again included); absent when the host cannot count.
   */
  readonly outputLength?: number;
}

export interface TerminalHost {
  /** Starts `command` (one shell command line) in the person's shell, in `options.cwd`. */
  run(command: string, options: RunCommandOptions): RunningCommand;
  /** The shell `run` uses; absent when the host cannot tell (then it may be anything, zsh included). */
  readonly shell?: TerminalShell;
  /** The terminals open now with their recent output, most recently used first; absent when the host cannot tell. */
  activity?(): readonly TerminalActivity[];
}

/** One of the workspace's errors or warnings, as the editor reports it. */
export interface WorkspaceProblem {
  /** Absolute path of the file. */
  readonly path: string;
  /** Zero-based line. */
  readonly line: number;
  readonly severity: "error" | "warning";
  readonly message: string;
  /** The tool that reported it, e.g. "ts" or "eslint". */
  readonly source?: string;
  readonly code?: string;
}

/** What the editor shows now: for the environment details and the @-mentions. Absent outside an editor. */
export interface EditorHost {
  /** Files visible in editors now, absolute paths, the active one first. */
  visibleFiles(): readonly string[];
  /** Files open in tabs, visible or not, absolute paths. */
  openTabs(): readonly string[];
  /** The workspace's errors and warnings. */
  problems(): readonly WorkspaceProblem[];
}

/** A proposed edit shown to the person in the editor's diff view while it streams. */
export interface DiffSession {
  /** Replaces the proposed text (called as the model streams, then once with the final text). */
  update(proposed: string, final: boolean): Promise<void>;
  /**
   * Writes the proposed text through the editor. The person may have edited it in the diff view
   * before approving: `content` is what actually landed, and `personEdits` a unified diff of their
   * changes against the model's proposal (undefined when they changed nothing). `newProblems`
   * lists errors the editor reports for the file after saving that it did not report before.
   */
  save(): Promise<{ content: string; personEdits?: string; newProblems: string[] }>;
  /** Restores the file exactly as it was (or removes it if it did not exist) and closes the view. */
  revert(): Promise<void>;
}

export interface DiffViewHost {
  /** Opens the diff view for a file; `original` is undefined for a new file. */
  open(absolutePath: string, original: string | undefined): Promise<DiffSession>;
  /**
   * Shows files as they were at a checkpoint against the workspace now, read-only on the left
   * and the real file on the right (VS Code's multi-file diff editor). `title` names the step.
   * Absent where the host cannot show a diff.
   */
  showChanges?(title: string, changes: readonly CheckpointChange[]): Promise<void>;
}

export interface HostBridge {
  readonly workspace: WorkspaceHost;
  readonly window: WindowHost;
  readonly terminal: TerminalHost;
  /** Present in an editor; without it, edit tools write files directly after approval. */
  readonly diffView?: DiffViewHost;
  /** Present in an editor: its visible files, tabs and problems. */
  readonly editor?: EditorHost;
  /**
   * The ripgrep search_files runs: the host's own (VS Code ships one), or false for none (it then
   * searches in JavaScript). Absent: `rg` on PATH, if there is one.
   */
  readonly ripgrep?: string | false;
}
