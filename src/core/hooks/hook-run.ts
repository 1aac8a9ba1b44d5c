/**
 * One hook file run once: its launch (as it is, or through the command sandbox for a workspace
 * hook while the sandbox is on), the process, and what its run means: a verdict to honour, or a
 * problem to show and otherwise ignore. The chat row's record (`HookRunInfo`) is made here.
 */
import type { HookRunInfo } from "../../shared/messages";
import { shellQuote } from "../sandbox/shell-quote";
import type { HookFile } from "./discovery";
import { parseHookOutput, type HookVerdict } from "./hook-output";
import { runHookProcess, MAX_HOOK_STDOUT, type HookLaunch, type HookProcessResult } from "./hook-process";

/** A line the command sandbox made to run `command` confined (TaskCommands.confine); undefined: commands run unconfined. */
export type ConfineLine = (command: string, cwd: string, signal: AbortSignal) => Promise<{ line: string; release(): void } | undefined>;

export interface HookRunOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** For workspace hooks: the command sandbox's wrapping. */
  readonly confine?: ConfineLine;
}

export interface HookRunResult {
  /** Honoured: a clean run, or a failed one that still printed a valid object. */
  readonly verdict?: HookVerdict;
  readonly info: HookRunInfo;
  /** The hook's process id (its process group's), once started. */
  readonly pid?: number;
}

const SHOWN_OUTPUT = 4 * 1024;

export async function runHookFile(hook: HookFile, input: string, options: HookRunOptions): Promise<HookRunResult> {
  let launch: HookLaunch = { command: hook.realPath, args: [] };
  let release = () => {};
  let sandboxed = false;
  if (hook.source === "workspace" && options.confine) {
    try {
      const confined = await options.confine(shellQuote(hook.realPath), options.cwd, options.signal);
      if (confined) {
        launch = { command: "/bin/sh", args: ["-c", confined.line] };
        release = () => confined.release();
        sandboxed = true;
      }
    } catch (error) {
      return { info: record(hook, { outcome: "failed", durationMs: 0, problem: `it could not be put in the command sandbox, so it was not run: ${error instanceof Error ? error.message : String(error)}` }) };
    }
  }
  let result: HookProcessResult;
  try {
    result = await runHookProcess(launch, input, { cwd: options.cwd, timeoutMs: options.timeoutMs, signal: options.signal });
  } finally {
    release();
  }
  return judge(hook, result, options.timeoutMs, sandboxed);
}

function judge(hook: HookFile, result: HookProcessResult, timeoutMs: number, sandboxed: boolean): HookRunResult {
  const base = { durationMs: result.durationMs, exitCode: result.exitCode, output: shown(result), ...(sandboxed ? { sandboxed } : {}) };
  const pid = result.pid;
  if (result.startError) return { pid, info: record(hook, { ...base, outcome: "failed", problem: `it could not be started: ${result.startError}` }) };
  if (result.stoppedBy === "timeout") {
    return { pid, info: record(hook, { ...base, outcome: "timeout", problem: `it ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped (its whole process group was killed)` }) };
  }
  if (result.stoppedBy === "cancel") return { pid, info: record(hook, { ...base, outcome: "stopped", problem: "it was stopped with the task" }) };
  if (result.stoppedBy === "output") return { pid, info: record(hook, { ...base, outcome: "failed", problem: `it printed more than ${MAX_HOOK_STDOUT / 1024} KB and was stopped` }) };
  const parsed = parseHookOutput(result.stdout);
  const exitProblem = result.exitCode !== 0 ? (result.signal ? `it was killed by ${result.signal}` : `it exited with code ${result.exitCode}`) : undefined;
  if ("problem" in parsed) {
    const problem = [exitProblem, parsed.problem].filter(Boolean).join("; ");
    return { pid, info: record(hook, { ...base, outcome: "failed", problem: `${problem}; it is treated as having said nothing` }) };
  }
  const { verdict } = parsed;
  // A non-zero exit without an object says nothing; an object is honoured whatever the exit code.
  const saidSomething = verdict.cancel || verdict.contextModification !== undefined || verdict.errorMessage !== undefined;
  if (exitProblem && !saidSomething) return { pid, info: record(hook, { ...base, outcome: "failed", problem: `${exitProblem}; it is treated as having said nothing` }) };
  const info = record(hook, {
    ...base,
    outcome: verdict.cancel ? "cancelled" : exitProblem ? "failed" : "ok",
    ...(exitProblem ? { problem: exitProblem } : {}),
    ...(verdict.errorMessage ? { message: verdict.errorMessage } : {}),
    ...(verdict.contextModification ? { addedContext: true } : {}),
  });
  return { pid, verdict, info };
}

function record(hook: HookFile, fields: Omit<HookRunInfo, "point" | "path" | "source">): HookRunInfo {
  return { point: hook.point, path: hook.path, source: hook.source, ...fields };
}

/** What the row folds away: stdout then stderr, each cut to its end. */
function shown(result: HookProcessResult): string | undefined {
  const parts = [result.stdout.trim(), result.stderr.trim()].filter(Boolean).map((part) => (part.length > SHOWN_OUTPUT ? `…${part.slice(-SHOWN_OUTPUT)}` : part));
  return parts.length ? parts.join("\n--- stderr ---\n") : undefined;
}
