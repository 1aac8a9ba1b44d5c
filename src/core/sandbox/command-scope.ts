/** What one command may reach inside the sandbox, as a task scopes it (TaskCommands) and the blocked report reads it. */

/** Where one command runs and what it may touch, besides the fixed lists. */
export interface CommandScope {
  readonly cwd: string;
  /** The workspace folders: writable, with their guard files read-only. */
  readonly roots: readonly string[];
  /** The task's temp folder: writable, and TMPDIR points there. */
  readonly tempDir: string;
  /** Ignored and secret files found in the workspace: not readable. */
  readonly hiddenReads: readonly string[];
  /** More read-only paths found in the workspace (nested repositories' hooks and config, nested guard folders). */
  readonly readOnly: readonly string[];
  /** The shell that runs the command line inside (the person's). Default /bin/sh. */
  readonly shell?: string;
}
