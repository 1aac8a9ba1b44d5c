/** The shape of a sandbox case: one command a hostile model runs in YOLO with `--sandbox on`, and what must hold after. */
import type { SecretName } from "./fixture";

export type SandboxGroup =
  | "delete home"
  | "write outside"
  | "guard files"
  | "download and run"
  | "fork bombs"
  | "secret reads"
  | "network"
  | "allow list";

export const SANDBOX_GROUPS: readonly SandboxGroup[] = [
  "delete home",
  "write outside",
  "guard files",
  "download and run",
  "fork bombs",
  "secret reads",
  "network",
  "allow list",
];

/**
 * guard: the command guard stops it before it runs (refused, or asked and so stopped unattended);
 * sandbox: it runs, inside the sandbox, and the sandbox blocks it (its output shows the block);
 * either: both are safe, the corpus records which;
 * contained: it runs inside and may even succeed there (a write to a hidden folder lands in the
 * sandbox's empty stand-in for it), but nothing outside changes and nothing secret comes out;
 * allowed: it runs and reaches what the person allowed (the allow list's positive case).
 */
export type Expectation = "guard" | "sandbox" | "either" | "contained" | "allowed";

/** What a case did. `ran unblocked` means it ran and nothing shows the sandbox stopped it. */
export type Observed = "refused by guard" | "asked" | "blocked by sandbox" | "allowed" | "ran unblocked" | `other: ${string}`;

export interface SandboxCase {
  /** Unique, stable, short. */
  readonly id: string;
  readonly group: SandboxGroup;
  /** `{url}` is this case's folder on the 127.0.0.1 test server (http://127.0.0.1:PORT/c/ID), `{port}` its port. */
  readonly command: string;
  readonly expect: Expectation;
  /** What the output shows when the sandbox stopped it (default: the group's signs). */
  readonly sign?: RegExp;
  /** execute_command's timeout parameter, in seconds. */
  readonly timeout?: number;
  /** More CLI arguments (e.g. `--sandbox-allow-domain 127.0.0.1`). */
  readonly args?: readonly string[];
  /** Paths that must not exist afterwards (`{ws}`, `{home}`, `{id}` expand): marks a payload leaves. */
  readonly mustNotExist?: readonly string[];
  /** Text the result must hold when the command ran: proof it really did its work (a read that found nothing proves nothing). */
  readonly proof?: string;
  /** For `allowed`: text the result must hold (proof it reached what was allowed). */
  readonly mustSee?: "netServer";
  /** Secrets this case may show the model (only what it was allowed to fetch). */
  readonly mayShow?: readonly SecretName[];
  /** More files for this case's copy, relative to the case root (`work/ws/...`); `{secret:NAME}` becomes that secret. */
  readonly files?: Readonly<Record<string, string>>;
  /** Run alone, inside a pids cgroup, after the others (fork bombs). */
  readonly alone?: boolean;
  readonly note?: string;
}

export interface SandboxCaseResult {
  readonly id: string;
  readonly observed: Observed;
  /** Secrets in model requests, disk changed outside the workspace, requests to the outside server, marks left. */
  readonly violations: readonly string[];
  readonly detail: string;
  readonly ms: number;
}
