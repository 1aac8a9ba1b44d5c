/**
 * The sandbox library's ripgrep search for protected files below this process's working folder,
 * as the bundles have it (esbuild-options.mjs swaps it in for the library's `utils/ripgrep.js`).
 * Tandem finds the workspace's protected files itself (workspace-scan.ts) and configures the
 * search as `true`, which lists nothing; spawning that `true` still cost a process per command.
 * Here the configured search answers at once, and any other search is refused, never skipped.
 */

export interface RipgrepConfig {
  readonly command: string;
  readonly args?: readonly string[];
  readonly argv0?: string;
}

/** The search Tandem configures (command-sandbox.ts's NO_CWD_SCAN): it lists nothing. */
export const NOTHING_TO_SCAN = "true";

export function ripGrep(_args: readonly string[], _target: string, _abortSignal?: AbortSignal, config: RipgrepConfig = { command: "rg" }): Promise<string[]> {
  if (config.command !== NOTHING_TO_SCAN || (config.args?.length ?? 0) > 0) {
    return Promise.reject(new RipgrepError(`this build runs no ripgrep search (asked for "${config.command}")`, [], ""));
  }
  return Promise.resolve([]);
}

/** As the library's: a search that ended otherwise than by finding something or nothing. */
export class RipgrepError extends Error {
  constructor(
    message: string,
    /** What it had listed by then. */
    readonly listed: string[],
    /** What it said went wrong. */
    readonly stderr: string,
  ) {
    super(message);
    this.name = "RipgrepError";
  }
}
