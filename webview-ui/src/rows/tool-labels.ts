/** How a tool row introduces itself, asking ("wants to read") or reporting ("read"). */
import type { ToolMessageInfo } from "../../../src/shared/messages";

export interface ToolLabel {
  readonly icon: string;
  readonly title: string;
}

const LABELS: Record<string, { icon: string; ask: string; say: string }> = {
  read_file: { icon: "file-code", ask: "wants to read this file", say: "read this file" },
  list_files: { icon: "folder-opened", ask: "wants to view the files in this directory", say: "viewed the files in this directory" },
  list_code_definition_names: { icon: "symbol-class", ask: "wants to view source code definitions in", say: "viewed source code definitions in" },
  search_files: { icon: "search", ask: "wants to search this directory", say: "searched this directory" },
  web_fetch: { icon: "globe", ask: "wants to fetch this URL", say: "fetched this URL" },
  write_to_file: { icon: "new-file", ask: "wants to write this file", say: "wrote this file" },
  replace_in_file: { icon: "edit", ask: "wants to edit this file", say: "edited this file" },
};

export function toolLabel(tool: ToolMessageInfo, asking: boolean): ToolLabel {
  const known = LABELS[tool.tool];
  if (!known) return { icon: "tools", title: `Tandem ${asking ? "wants to use" : "used"} the tool ${tool.tool}` };
  return { icon: known.icon, title: `Tandem ${asking ? known.ask : known.say}` };
}

/** Tools whose content is a change to a file, shown as a diff preview rather than a result. */
export function isEditTool(tool: string): tool is "write_to_file" | "replace_in_file" {
  return tool === "write_to_file" || tool === "replace_in_file";
}
