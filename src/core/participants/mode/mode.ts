/**
 * Plan and Act in the loop. The mode itself is the scope's (task/task-mode.ts: the Controller
 * switches it, the task's storage keeps it); what it means for the loop is decided here from each
 * tool's own declaration (`readOnly`, `modes`, `isReadOnlyCall`), for the prompt, the native
 * specs and the calls alike: the tools each mode offers, the calls it refuses (with no preview),
 * the prompt's mode section, the note of a switch with the next request, and in Plan mode the
 * pointer to plan_mode_respond after a round of plain text. Switching to Act while a plan waits
 * for the person answers it, so the task carries the plan on.
 */
import type { AgentMode } from "../../../shared/settings";
import { modeSection, modeTexts } from "../../prompts/mode-texts";
import type { ArrivedCall, CallRefusal, PromptRequest, RequestDraft, TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";
import type { ToolSet } from "../../task/tools/registry";
import type { RawParams, ToolContext, ToolDefinition } from "../../task/tools/types";
import type { DisposableLike } from "../../util/disposable";

export type { AgentMode } from "../../../shared/settings";

export class PlanActMode implements TaskParticipant {
  readonly name = "mode";
  /** The mode the model last heard of: the mode of the last request sent. */
  private told: AgentMode;
  private readonly switches: DisposableLike;

  constructor(private readonly scope: TaskScope) {
    this.told = scope.mode.toldAtStart;
    this.switches = scope.mode.onDidChange((mode) => this.switched(mode));
  }

  async opened(): Promise<void> {
    void this.scope.mode.save();
  }

  systemPrompt(request: PromptRequest): readonly string[] {
    return [modeSection(request.mode)];
  }

  offeredTools(tools: ToolSet, mode: AgentMode): ToolSet {
    return toolsForMode(tools, mode);
  }

  /**
   * A call the mode does not run: refused (no preview while it streams), nothing done. The model
   * reads why; the person sees the call's row, not run, with a calm note (not an error).
   */
  callArrived({ call, tool }: ArrivedCall): CallRefusal | undefined {
    if (!tool) return undefined;
    const mode = this.scope.mode.current;
    const text = modeRefusal(tool, call.params, mode, this.scope.participants.lent);
    return text === undefined ? undefined : { kind: "mistake", text, refusedIn: { mode, note: modeTexts.refusedNote(tool.name, mode) } };
  }

  /** The note of a switch since the last request (none if switched back), and Plan's pointer after plain text. */
  async beforeRequest(draft: RequestDraft): Promise<undefined> {
    const mode = this.scope.mode.current;
    if (mode !== this.told) {
      this.told = mode;
      draft.add(modeTexts.switched(mode));
    }
    if (draft.afterNoTool && mode === "plan") draft.add(modeTexts.planReminder);
    return undefined;
  }

  dispose(): void {
    this.switches.dispose();
  }

  private switched(mode: AgentMode): void {
    const open = this.scope.openQuestion;
    if (mode === "act" && open?.kind === "plan_mode_respond") this.scope.answer(open.id, { type: "no" });
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
export function modeRefusal(tool: ToolDefinition, params: RawParams, mode: AgentMode, ctx: Pick<ToolContext, "mcp">): string | undefined {
  const allowed = offeredIn(tool, mode) && (mode === "act" || tool.readOnly || tool.isReadOnlyCall?.(params, ctx) === true);
  return allowed ? undefined : modeTexts.refused(tool.name, mode);
}
