/**
 * Plan and Act. `TaskMode` is the one owner of a task's mode: the Controller switches it, the
 * task's storage keeps it (so a resumed task opens in it), and the next request tells the model of
 * a switch once. Which tools a mode offers and which calls it refuses are decided here from each
 * tool's own declaration (`readOnly`, `modes`, `isReadOnlyCall`), for the prompt, the native specs
 * and the executor alike.
 */
import type { AgentMode } from "../../shared/settings";
import { modeTexts } from "../prompts/mode-texts";
import { CoalescingWriter } from "../storage/coalescing-writer";
import type { RawParams, ToolContext, ToolDefinition } from "./tools/types";

export type { AgentMode } from "../../shared/settings";

export class TaskMode {
  private mode: AgentMode;
  /** The mode the model last heard of: the mode of the last request sent. */
  private told: AgentMode;
  private readonly writer: CoalescingWriter | undefined;

  /** `told`: the mode the conversation so far ran in (a resumed task's saved one), when it differs from `initial`. */
  constructor(initial: AgentMode, options: { told?: AgentMode; save?: (mode: AgentMode) => Promise<void>; onError?: (error: unknown) => void } = {}) {
    this.mode = initial;
    this.told = options.told ?? initial;
    const save = options.save;
    this.writer = save ? new CoalescingWriter(() => save(this.mode), options.onError ?? (() => {})) : undefined;
  }

  get current(): AgentMode {
    return this.mode;
  }

  /** Switches; false when it already was that mode. Saved in the background, latest value last. */
  set(mode: AgentMode): boolean {
    if (mode === this.mode) return false;
    this.mode = mode;
    void this.writer?.request();
    return true;
  }

  /** Records the mode as it is now (a new task's first one). */
  save(): Promise<void> {
    return this.writer?.request() ?? Promise.resolve();
  }

  flush(): Promise<void> {
    return this.writer?.flush() ?? Promise.resolve();
  }

  /** For the request about to go: the note of a switch since the last one (none if switched back). */
  takeSwitchNote(): string | undefined {
    if (this.mode === this.told) return undefined;
    this.told = this.mode;
    return modeTexts.switched(this.mode);
  }
}

/** The tools the model is offered in `mode` (the system prompt's list, the native specs). */
export function toolsForMode<T extends Readonly<Record<string, ToolDefinition>>>(tools: T, mode: AgentMode): T {
  return Object.fromEntries(Object.entries(tools).filter(([, tool]) => offeredIn(tool, mode))) as T;
}

function offeredIn(tool: ToolDefinition, mode: AgentMode): boolean {
  if (tool.modes && !tool.modes.includes(mode)) return false;
  return mode === "act" || tool.readOnly || tool.isReadOnlyCall !== undefined;
}

/** Why `mode` does not run this call (the model's text, nothing was done), or undefined when it runs. */
export function modeRefusal(tool: ToolDefinition, params: RawParams, mode: AgentMode, ctx: ToolContext): string | undefined {
  const allowed = offeredIn(tool, mode) && (mode === "act" || tool.readOnly || tool.isReadOnlyCall?.(params, ctx) === true);
  return allowed ? undefined : modeTexts.refused(tool.name, mode);
}

/** The reminder after a round without a tool; in Plan mode, the model is pointed to plan_mode_respond. */
export function withModeReminder(reminder: string, mode: AgentMode): string {
  return mode === "plan" ? `${reminder}\n\n${modeTexts.planReminder}` : reminder;
}
