/**
 * How a tool row introduces itself. It says what was done only once it was: while the call streams
 * in and while it waits for the person it "wants to"; once answered, an approval makes it done
 * ("edited this file") and anything else says what became of it ("wanted to … (rejected)").
 */
import type { ChatMessage, ToolMessageInfo } from "../../../src/shared/messages";

export interface ToolLabel {
  readonly icon: string;
  readonly title: string;
}

/** The verb asked, then the object: "wants to" + "read this file". */
const LABELS: Record<string, { icon: string; action: string; done: string }> = {
  read_file: { icon: "file-code", action: "read this file", done: "read this file" },
  list_files: { icon: "folder-opened", action: "view the files in this directory", done: "viewed the files in this directory" },
  list_code_definition_names: { icon: "symbol-class", action: "view source code definitions in", done: "viewed source code definitions in" },
  search_files: { icon: "search", action: "search this directory", done: "searched this directory" },
  web_fetch: { icon: "globe", action: "fetch this URL", done: "fetched this URL" },
  use_skill: { icon: "book", action: "use this skill", done: "used this skill" },
  write_to_file: { icon: "new-file", action: "write this file", done: "wrote this file" },
  replace_in_file: { icon: "edit", action: "edit this file", done: "edited this file" },
  execute_command: { icon: "terminal", action: "run this command", done: "ran this command" },
};

/** What became of a question that did not let the tool run. */
const NOT_RUN_NOTES = {
  no: "rejected",
  message: "rejected, with a message",
  cancelled: "cancelled",
} as const;

/** Where a tool message stands: still a proposal, done, or not done (and why). */
export type ToolPhase = "proposed" | "done" | { readonly notRun: string };

export function toolPhase(message: ChatMessage): ToolPhase {
  if (message.tool?.cutOff) return { notRun: "cut off before the tool call ended, not run" };
  if (message.tool?.blocked) return { notRun: "blocked by a PreToolUse hook, not run" };
  if (message.tool?.refusedIn) return { notRun: `not run in ${message.tool.refusedIn === "plan" ? "Plan" : "Act"} mode` };
  if (message.type === "say") return message.partial ? "proposed" : "done";
  if (message.outcome === undefined) return "proposed";
  if (message.outcome === "yes") return "done";
  return { notRun: NOT_RUN_NOTES[message.outcome] };
}

export function toolLabel(tool: ToolMessageInfo, phase: ToolPhase): ToolLabel {
  const known = LABELS[tool.tool] ?? { icon: "tools", action: `use the tool ${tool.tool}`, done: `used the tool ${tool.tool}` };
  if (phase === "done") return { icon: known.icon, title: `Tandem ${known.done}` };
  if (phase === "proposed") return { icon: known.icon, title: `Tandem wants to ${known.action}` };
  return { icon: known.icon, title: `Tandem wanted to ${known.action} (${phase.notRun})` };
}

/** Tools whose content is a change to a file, shown as a diff preview rather than a result. */
export function isEditTool(tool: string): tool is "write_to_file" | "replace_in_file" {
  return tool === "write_to_file" || tool === "replace_in_file";
}
