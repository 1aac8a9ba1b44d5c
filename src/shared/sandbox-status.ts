/** What the OS sandbox for commands is doing on this machine: shown in the settings view, the YOLO warning and the CLI's start line. */
import type { SandboxMode, SandboxNetwork } from "./settings";

export interface SandboxStatus {
  readonly mode: SandboxMode;
  /** The machine offers a working sandbox (bubblewrap on Linux, Seatbelt on macOS). */
  readonly available: boolean;
  /** Commands run inside it: available and not switched off. */
  readonly active: boolean;
  /** `on` but not available: commands are refused rather than run unconfined. */
  readonly refusesCommands: boolean;
  /** "bubblewrap" or "Seatbelt" when available. */
  readonly technology?: string;
  /** Why it is not available (what is missing and how to install it), or why it is off. */
  readonly reason?: string;
  readonly network: SandboxNetwork;
  /** The domains sandboxed commands may reach when `network` is `allowList` (registries and the person's). */
  readonly allowedDomains: readonly string[];
  /** Extra writable folders, as the person listed them. */
  readonly writableFolders: readonly string[];
  /** Folders and files of HOME whose reads are denied (credential stores, browser profiles, editor and Tandem storage). */
  readonly deniedReads: readonly string[];
}

/** One line for the CLI's start, the notice and the YOLO warning. `modeSetting`: how the person sets the mode where this is shown. */
export function describeSandbox(status: SandboxStatus, modeSetting = "tandem.sandbox.mode"): string {
  if (status.active) {
    const net =
      status.network === "all" ? "any host" : status.network === "none" ? "no network" : `network only to ${status.allowedDomains.length} allowed domains`;
    return `Sandbox: on (${status.technology ?? "OS sandbox"}): commands write only in the workspace and a temp folder, cannot read credential stores or ignored files, ${net}.`;
  }
  if (status.mode === "off") return `Sandbox: off (${modeSetting} is "off"): commands run unconfined; the command guard alone judges them.`;
  if (status.refusesCommands) return `Sandbox: not available, and ${modeSetting} is "on", so commands are refused. ${status.reason ?? ""}`.trim();
  return `Sandbox: not available, so commands run unconfined and the command guard alone judges them. ${status.reason ?? ""}`.trim();
}
