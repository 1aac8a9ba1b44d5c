/**
 * A task's hooks: the Task and its ToolExecutor call `run(point, data)` at each hook point and get
 * back whether a hook cancelled (and why). Each run finds the hooks anew (a hook added mid-task
 * applies to the next point), runs the point's hooks one after the other in the documented order,
 * and combines them: any cancel wins (the reasons joined), every contextModification is kept, in
 * order, for the model's next message (`takeContext`). Workspace hooks run only once their folder
 * is trusted; when they are not, the chat says so once. Each run is a "hook" row in the chat.
 */
import type { HookRunInfo } from "../../shared/messages";
import type { TaskCommands } from "../sandbox/task-commands";
import { errorText } from "../util/error-text";
import { findHooks, hookFolders, type HookFile } from "./discovery";
import { hookInput, OBSERVING_POINTS, type HookPoint, type HookPointData } from "./hook-points";
import type { HookVerdict } from "./hook-output";
import { runHookFile } from "./hook-run";
import type { HookTrust } from "./trust";

export interface TaskHooksDeps {
  readonly taskId: string;
  readonly roots: readonly string[];
  /** `<Tandem storage>/hooks/`; none: no global hooks. */
  readonly globalFolder?: string;
  readonly trust: HookTrust;
  /** What the person does to trust a folder's hooks (the editor's command, the CLI's flag). */
  readonly trustHint: string;
  settings(): { readonly hooks: boolean; readonly hookTimeoutSeconds: number };
  say(kind: "hook" | "info", text: string, extra?: { hook?: HookRunInfo }): Promise<unknown>;
  /** The task's commands: workspace hooks go through their sandbox wrapping, and are refused when commands are. */
  readonly commands?: Pick<TaskCommands, "confine" | "sandbox">;
}

export interface HookOutcome {
  /** Set when a hook cancelled: the reasons, for the person and the model. */
  readonly cancel?: string;
  /** The runs' rows, when the caller shows them itself (`deferRows`). */
  show(): Promise<void>;
}

const NOTHING: HookOutcome = { show: async () => {} };

export class TaskHooks {
  private running = new AbortController();
  private readonly context: string[] = [];
  /** Said once per task: folders left untrusted (by fingerprint of their list) and hook files that cannot run. */
  private readonly said = new Set<string>();
  /** The process ids of the hooks started, newest last (tests check none is left). */
  readonly pids: number[] = [];

  constructor(private readonly deps: TaskHooksDeps) {}

  /**
   * Runs the point's hooks. `deferRows`: the rows are shown when the caller calls `show()`
   * (PreToolUse: under the tool's row, so a streamed preview still becomes its approval question).
   */
  async run<P extends HookPoint>(point: P, data: HookPointData[P], options: { deferRows?: boolean } = {}): Promise<HookOutcome> {
    if (!this.deps.settings().hooks) return NOTHING;
    try {
      return await this.runPoint(point, data, options);
    } catch (error) {
      // A folder that cannot be read, a process that cannot be made: said, and the task goes on.
      await this.deps.say("info", `The ${point} hooks could not run: ${errorText(error)}`);
      return NOTHING;
    }
  }

  private async runPoint<P extends HookPoint>(point: P, data: HookPointData[P], options: { deferRows?: boolean }): Promise<HookOutcome> {
    const settings = this.deps.settings();
    const hooks = await this.runnable(point);
    if (hooks.length === 0) return NOTHING;
    const input = hookInput(point, { taskId: this.deps.taskId, workspaceRoots: this.deps.roots }, data);
    const rows: HookRunInfo[] = [];
    const reasons: string[] = [];
    const signal = this.running.signal;
    for (const hook of hooks) {
      if (signal.aborted) break;
      const result = await this.runOne(hook, input, settings.hookTimeoutSeconds * 1000, signal);
      if (OBSERVING_POINTS.has(point)) {
        // It cannot change the task; a clean run is no news (one row per question would double the chat).
        const info = observed(result.info);
        if (info.outcome !== "ok" || info.message || info.problem) rows.push(info);
        continue;
      }
      rows.push(result.info);
      const verdict = result.verdict;
      if (verdict?.contextModification) this.context.push(verdict.contextModification);
      if (verdict?.cancel) reasons.push(verdict.errorMessage?.trim() || `${hook.path} gave no reason`);
    }
    const show = async () => {
      for (const row of rows) await this.deps.say("hook", describeHookRun(row), { hook: row });
    };
    if (!options.deferRows) await show();
    return reasons.length > 0 ? { cancel: reasons.join("; "), show: options.deferRows ? show : NOTHING.show } : { show: options.deferRows ? show : NOTHING.show };
  }

  /** One hook file, through the sandbox's wrapping for a workspace hook (refused while the sandbox is required but missing). */
  private async runOne(hook: HookFile, input: string, timeoutMs: number, signal: AbortSignal): Promise<{ info: HookRunInfo; verdict?: HookVerdict }> {
    const commands = this.deps.commands;
    if (hook.source === "workspace" && commands?.sandbox?.refusesCommands) {
      return { info: { point: hook.point, path: hook.path, source: hook.source, outcome: "failed", durationMs: 0, problem: "it was not run: the command sandbox is required (mode on) but not available here" } };
    }
    const confine = commands && ((line: string, cwd: string, abort: AbortSignal) => commands.confine(line, cwd, abort));
    const result = await runHookFile(hook, input, { cwd: hook.root ?? this.deps.roots[0] ?? process.cwd(), timeoutMs, signal, confine });
    if (result.pid !== undefined) this.pids.push(result.pid);
    return result;
  }

  /** Text for the model's next message that is not a hook's own (a cancel's reason where nothing else carries it). */
  addContext(text: string): void {
    this.context.push(text);
  }

  /** What the hooks added for the model's next message, once; undefined when nothing. */
  takeContext(): string | undefined {
    if (this.context.length === 0) return undefined;
    const text = this.context.splice(0).join("\n\n");
    return `<hook_context>\n${text}\n</hook_context>`;
  }

  /** The task is being cancelled: running hooks are killed; hooks run after this (TaskCancel) start afresh. */
  cancelRunning(): void {
    this.running.abort();
    this.running = new AbortController();
  }

  /** The point's hooks that may run: global ones, and workspace ones whose folder is trusted. */
  private async runnable(point: HookPoint): Promise<HookFile[]> {
    const found = await findHooks(hookFolders(this.deps.globalFolder, this.deps.roots));
    for (const problem of found.problems) await this.sayOnce(problem, `Hook: ${problem}`);
    if (!found.hooks.some((h) => h.point === point)) return [];
    const allowed = new Set<string>();
    for (const root of this.deps.roots) {
      const ofRoot = found.hooks.filter((h) => h.source === "workspace" && h.root === root);
      if (!ofRoot.some((h) => h.point === point)) continue;
      if (await this.deps.trust.trusted(root, ofRoot)) allowed.add(root);
      else {
        const names = [...new Set(ofRoot.map((h) => h.point))].join(", ");
        await this.sayOnce(`untrusted:${root}:${names}`, `This workspace's hooks (${names} in ${root}) were not run: a repository can ship any program, and you have not trusted this folder's hooks. ${this.deps.trustHint}`);
      }
    }
    return found.hooks.filter((h) => h.point === point && (h.source === "global" || (h.root !== undefined && allowed.has(h.root))));
  }

  private async sayOnce(key: string, text: string): Promise<void> {
    if (this.said.has(key)) return;
    this.said.add(key);
    await this.deps.say("info", text);
  }
}

/** An observing point's run: a cancel or contextModification it printed is ignored, and its row says so. */
function observed(info: HookRunInfo): HookRunInfo {
  const ignored = [info.outcome === "cancelled" ? "cancel" : "", info.addedContext ? "contextModification" : ""].filter(Boolean);
  if (ignored.length === 0) return info;
  const { addedContext: _added, ...rest } = info;
  const note = `its ${ignored.join(" and ")} ${ignored.length > 1 ? "are" : "is"} ignored: ${info.point} hooks only observe`;
  return { ...rest, outcome: info.outcome === "cancelled" ? "ok" : info.outcome, problem: info.problem ? `${info.problem}; ${note}` : note };
}

/** The row's one line (the CLI prints it as it is). */
export function describeHookRun(run: HookRunInfo): string {
  const head = `${run.point} hook ${run.path}`;
  const took = `${run.durationMs} ms`;
  switch (run.outcome) {
    case "cancelled":
      return `${head} cancelled: ${run.message ?? "no reason given"} (${took})`;
    case "ok":
      return `${head} ran (${took}${run.addedContext ? ", added context for the model" : ""})${run.message ? `: ${run.message}` : ""}${run.problem ? `; ${run.problem}` : ""}`;
    default:
      return `${head} ${run.outcome === "timeout" ? "timed out" : run.outcome === "stopped" ? "was stopped" : "failed"}: ${run.problem ?? "unknown problem"}${run.message ? ` (${run.message})` : ""}`;
  }
}
