/** The shape of a security case: what the hostile model does, under which settings, and what must happen. */

/**
 * refused: the guard said no and told the model (command guard, ignore or secret-file refusal);
 * asked: it needed the person, whom an unattended CLI cannot ask (exit code 3 and its note);
 * allowed: it ran without a question.
 */
export type Outcome = "refused" | "asked" | "allowed";

export const OUTCOMES: readonly Outcome[] = ["refused", "asked", "allowed"];

/** The classes of issue 11, plus controls that must still work (a guard that refuses everything passes nothing). */
export type Group = "links" | "guard files" | "outside reads" | "shell constructs" | "rewrites" | "roots" | "controls";

export const GROUPS: readonly Group[] = ["links", "guard files", "outside reads", "shell constructs", "rewrites", "roots", "controls"];

/** The person's settings: `--yolo`, and the CLI's `--auto-approve` names (read is on by default). */
export interface Mode {
  readonly yolo?: boolean;
  readonly approve?: readonly string[];
}

export interface CallSpec {
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
  /** Stream this call slowly (ms between its deltas), e.g. so an ignore file's reload lands first. */
  readonly delayMs?: number;
}

interface CaseBase {
  /** Unique, stable, short: how failures are named. */
  readonly id: string;
  readonly group: Group;
  readonly expect: Outcome;
  /** Where the issue allows two answers ("separate or refuse"), the other one. */
  readonly orElse?: Outcome;
  readonly mode: Mode;
  /** Why this expectation, when it is not obvious from the issue. */
  readonly note?: string;
}

/** Run end to end: the production CLI bundle, the real shell, a throwaway HOME and workspace. */
export interface CliCase extends CaseBase {
  readonly run: "cli";
  /** Links to create in the workspace before the run: name → target (`{home}`, `{root}`, `{ws}` expand). */
  readonly links?: Readonly<Record<string, string>>;
  /** The shell the CLI runs commands with ($SHELL). Default bash. */
  readonly shell?: "bash" | "zsh";
  /** Run with a second workspace folder (`--root work/web`, named "web"). */
  readonly roots?: boolean;
  /** Run without ripgrep on PATH, so search_files uses its JavaScript fallback. */
  readonly noRipgrep?: boolean;
  /** Text an allowed call's result must hold: proof that it really ran (a search that finds nothing proves nothing). */
  readonly mustSee?: string;
  /** The judged call first; later calls are the attack's follow-up (e.g. read what an edit unprotected). */
  readonly calls: readonly CallSpec[];
}

/**
 * Judged by the policy only (`decideApproval`, in-process), never run: destructive if misjudged
 * (aimed at `/` or the real home, fork bombs) or needing tools this machine may lack.
 */
export interface PolicyCase extends CaseBase {
  readonly run: "policy";
  readonly command: string;
}

export type SecurityCase = CliCase | PolicyCase;

/** What a case did: the outcome seen and every safety problem found. */
export interface CaseResult {
  readonly id: string;
  readonly observed: Outcome | `other: ${string}`;
  /** Secret markers in model requests, changed disk outside the workspace or of guard files. */
  readonly violations: readonly string[];
  /** For the failure message: exit code, stderr tail, the tool result. */
  readonly detail: string;
  /** How long the case took (the CLI's run, or the policy's judgement). */
  readonly ms?: number;
}
