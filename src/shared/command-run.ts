/**
 * What the person is told about a command's run: the confinement it runs under, how it ended, and
 * what the OS sandbox blocked. The core sets these fields (core/sandbox owns the facts); the panel
 * only words them, never reading them out of the command's output.
 */
import type { SandboxNetwork } from "./settings";

/** The confinement a command runs under, as the command runner decides it (core/sandbox/task-commands.ts). */
export type CommandConfinement =
  /** Inside the OS sandbox, with what it allows. */
  | {
      readonly kind: "sandboxed";
      /** "bubblewrap" or "Seatbelt". */
      technology: string;
      network: SandboxNetwork;
      /** With `allowList`: how many domains the list holds (registries and the person's). */
      allowedDomains: number;
      /** The person's extra writable folders (tandem.sandbox.writableFolders), as listed. */
      writableFolders: string[];
    }
  /** Outside the sandbox although one is active: the model asked for it and the person (or their setting) allowed it. */
  | { readonly kind: "outside" }
  /** No sandbox: `off` by tandem.sandbox.mode, or `unavailable` on this machine (`reason` says why). */
  | { readonly kind: "none"; why: "off" | "unavailable"; reason?: string };

/** How a command's run ended, or that it goes on. */
export type CommandEnd =
  | { readonly kind: "exited"; code: number }
  | { readonly kind: "signal"; signal: string }
  | { readonly kind: "timeout"; seconds: number }
  /** Ended by the person's Kill Command (or Ctrl-C in its terminal). */
  | { readonly kind: "killed" }
  /** Ended with the cancelled task. */
  | { readonly kind: "cancelled" }
  /** The person let it go on in the background; its end comes as a later row. */
  | { readonly kind: "background" };

/** Something the sandbox refused a command, for the person. */
export interface SandboxBlock {
  /** write: outside the writable folders; protected: a protected path in the workspace; read: a hidden file; network: a host. */
  readonly kind: "write" | "protected" | "read" | "network" | "other";
  /** The path or host refused, when the output or the sandbox names it (absolute for paths). */
  readonly target?: string;
  /** The output line (or the sandbox's record) that shows it. */
  readonly evidence: string;
  /** The setting that would allow it; none when only a run outside the sandbox would. */
  readonly setting?: SandboxSettingKey;
}

/** The settings (package.json contributes.configuration) that widen what sandboxed commands may do. */
export type SandboxSettingKey = "tandem.sandbox.writableFolders" | "tandem.sandbox.allowedDomains" | "tandem.sandbox.network" | "tandem.sandbox.mode";

/** One run of a command, on its output rows: set when it starts; `end` and `blocked` once it is over. */
export interface CommandRunInfo {
  confinement: CommandConfinement;
  /** Unset while it runs. */
  end?: CommandEnd;
  /** What the sandbox blocked (the same finding the model is told of); unset when nothing. */
  blocked?: SandboxBlock[];
  /** With `end`: the hosts the sandbox let it reach ("host", or "host:port" off 80 and 443); unset when none. */
  hosts?: string[];
  /**
   * On the rows a run adds once the person let it go on in the background: the command as typed.
   * Other rows (the model's next answer) come between, so these name it.
   */
  background?: string;
}

/** How a run ended, in a few words (the panel's row and the CLI's line). */
export function commandEndText(end: CommandEnd | undefined): string {
  if (!end) return "Still running";
  switch (end.kind) {
    case "exited":
      return `Exit code ${end.code}`;
    case "signal":
      return `Ended by signal ${end.signal}`;
    case "timeout":
      return `Timed out after ${end.seconds} s: stopped`;
    case "killed":
      return "Stopped (Kill Command)";
    case "cancelled":
      return "Stopped: the task was cancelled";
    case "background":
      return "Still running, in the background";
  }
}

/** The confinement, short, beside the end (the command row says it in full). */
export function confinementShort(confinement: CommandConfinement): string {
  if (confinement.kind === "sandboxed") return `in the sandbox (${confinement.technology})`;
  if (confinement.kind === "outside") return "outside the sandbox";
  return "not sandboxed";
}
