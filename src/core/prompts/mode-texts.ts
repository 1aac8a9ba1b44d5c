/**
 * What the model reads about Plan and Act: the system prompt's mode section, the refusal of a
 * call the mode does not allow, and the note that goes with the first request after a switch;
 * and what the person reads on the row of a refused call (`refusedNote`).
 */
import type { AgentMode } from "../../shared/settings";

export function modeSection(mode: AgentMode): string {
  if (mode === "act") {
    return `MODE: ACT

You are in Act mode: carry out the task with your tools. If a plan was agreed earlier in the conversation (in Plan mode), follow it. Finish with attempt_completion.`;
  }
  return `MODE: PLAN

You are in Plan mode: explore and discuss, change nothing. Read files, search and list to understand the task, then work out with the person how to do it. Tools that change files or run commands are refused in this mode (MCP tools run only when their server marks them read-only).
- Talk to the person with plan_mode_respond: present your plan, or ask about it, with options they can pick. It takes the place of attempt_completion in this mode.
- Set needs_more_exploration to true when you need to look at more before planning further.
- When the plan is agreed, the person switches to Act mode and you carry it out.`;
}

export const modeTexts = {
  /** A tool this mode does not run; nothing was done. */
  refused(tool: string, mode: AgentMode): string {
    if (mode === "act") return `${tool} is for Plan mode, and the task is in Act mode: carry out the work with your tools and present the result with attempt_completion.`;
    if (tool === "attempt_completion") return "The task is in Plan mode: present your plan (or ask about it) with plan_mode_respond. attempt_completion is for Act mode, once the work is done.";
    return `${tool} is not available in Plan mode: in Plan mode you explore and discuss, and nothing is changed or run. Nothing was done. Present your plan with plan_mode_respond; the person switches to Act mode when they want it carried out.`;
  },

  /** For the person, on the refused call's row: what happened, calmly, and what they can do. The model was told apart. */
  refusedNote(tool: string, mode: AgentMode): string {
    if (mode === "act") return `${tool} is for Plan mode, so Tandem did not use it; it goes on in Act mode.`;
    if (tool === "attempt_completion") return "Plan mode does not finish tasks: Tandem was asked to present its plan instead.";
    return "Plan mode only explores and plans, so nothing was changed or run. Switch to Act when you want the plan carried out.";
  },

  /** Plan mode: a round of plain text is the model talking to the person, which plan_mode_respond is for. */
  planReminder: "You are in Plan mode: to present your plan or ask the person about it, use plan_mode_respond instead of plain text.",

  /** How the environment details name the mode. */
  environment(mode: AgentMode): string {
    return mode === "plan" ? "Plan (read-only: explore and answer with plan_mode_respond)" : "Act";
  },

  /** With the first request after the person switched. */
  switched(mode: AgentMode): string {
    return mode === "act"
      ? "[The person switched to Act mode. Carry out the plan discussed so far: you may now change files and run commands (with their approval), and finish with attempt_completion.]"
      : "[The person switched to Plan mode. Change nothing now: explore with read-only tools and discuss the plan with plan_mode_respond.]";
  },
};
