/**
 * How a tool row introduces itself: asking ("wants to read"), reporting ("read"), or, once a
 * question was answered, what became of it ("wanted to write this file (rejected)").
 */
import type { AskOutcome, ToolMessageInfo } from "../../../src/shared/messages";

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
  write_to_file: { icon: "new-file", action: "write this file", done: "wrote this file" },
  replace_in_file: { icon: "edit", action: "edit this file", done: "edited this file" },
};

const OUTCOME_NOTES: Record<AskOutcome, string> = {
  yes: "approved",
  no: "rejected",
  message: "rejected, with a message",
  cancelled: "cancelled",
};

/** `asking`: the row is a question; `outcome`: how it was answered, if it was. */
export function toolLabel(tool: ToolMessageInfo, asking: boolean, outcome?: AskOutcome): ToolLabel {
  const known = LABELS[tool.tool] ?? { icon: "tools", action: `use the tool ${tool.tool}`, done: `used the tool ${tool.tool}` };
  if (!asking) return { icon: known.icon, title: `Tandem ${known.done}` };
  if (outcome === undefined) return { icon: known.icon, title: `Tandem wants to ${known.action}` };
  return { icon: known.icon, title: `Tandem wanted to ${known.action} (${OUTCOME_NOTES[outcome]})` };
}

/** Tools whose content is a change to a file, shown as a diff preview rather than a result. */
export function isEditTool(tool: string): tool is "write_to_file" | "replace_in_file" {
  return tool === "write_to_file" || tool === "replace_in_file";
}
