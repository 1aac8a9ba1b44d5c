/**
 * What the hub asks of the OS sandbox for a stdio server configured with `"sandbox": true`.
 * The host hands one in (core/sandbox's McpServerConfiner, on the command sandbox tasks use);
 * the hub never imports the sandbox. A server that asks for the sandbox and cannot have it
 * fails with the reason: it is never started unconfined instead.
 */
import type { StdioLaunch } from "./stdio-transport";

/** A launch made ready to run confined. */
export interface ConfinedLaunch {
  /** What the transport spawns instead of the server's own command (under its process-group launcher). */
  readonly launch: StdioLaunch;
  /** Once the process has ended: removes what the confinement needed (its launcher, its temp folder). */
  release(): void;
}

export interface McpServerSandbox {
  /**
   * The launch that runs `launch` inside the sandbox, writable only in `roots` (the workspace
   * folders) and a temp folder of its own. Rejects with one sentence saying why when it cannot
   * (no sandbox on this machine, or switched off).
   */
  confine(launch: StdioLaunch, roots: readonly string[], signal?: AbortSignal): Promise<ConfinedLaunch>;
}

/** The failure a server with `"sandbox": true` shows when it could not be confined. */
export function sandboxRefusal(reason: string): string {
  const why = reason.trim().replace(/\.$/, "");
  return `"sandbox": true, but the server cannot run in the sandbox, so it was not started: ${why}. Removing "sandbox": true runs it unconfined.`;
}
