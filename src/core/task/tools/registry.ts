/**
 * The one list of tools. The XML parser's grammar, the native tool specs and the system prompt
 * are all derived from it, so a tool is added in exactly one place.
 */
import type { ToolSpec } from "../../../api/types";
import { accessMcpResourceTool } from "./access-mcp-resource";
import { askFollowupQuestionTool } from "./ask-followup-question";
import { attemptCompletionTool } from "./attempt-completion";
import { executeCommandTool } from "./execute-command";
import { listCodeDefinitionNamesTool } from "./list-code-definition-names";
import { listFilesTool } from "./list-files";
import { newTaskTool } from "./new-task";
import { planModeRespondTool } from "./plan-mode-respond";
import { readFileTool } from "./read-file";
import { replaceInFileTool } from "./replace-in-file";
import { searchFilesTool } from "./search-files";
import type { ToolDefinition } from "./types";
import { useMcpToolTool } from "./use-mcp-tool";
import { useSkillTool } from "./use-skill";
import { webFetchTool } from "./web-fetch";
import { writeToFileTool } from "./write-to-file";

/** Keys are the names the model uses; each must equal its definition's `name`. */
export type ToolSet = Readonly<Record<string, ToolDefinition>>;

export const TOOLS = {
  read_file: readFileTool,
  write_to_file: writeToFileTool,
  replace_in_file: replaceInFileTool,
  list_files: listFilesTool,
  search_files: searchFilesTool,
  list_code_definition_names: listCodeDefinitionNamesTool,
  execute_command: executeCommandTool,
  attempt_completion: attemptCompletionTool,
  ask_followup_question: askFollowupQuestionTool,
  plan_mode_respond: planModeRespondTool,
  new_task: newTaskTool,
  web_fetch: webFetchTool,
  use_mcp_tool: useMcpToolTool,
  access_mcp_resource: accessMcpResourceTool,
  use_skill: useSkillTool,
} satisfies ToolSet;

/** The tools that only mean something with MCP servers: a session without a hub leaves them out. */
export const MCP_TOOL_NAMES: readonly string[] = [useMcpToolTool.name, accessMcpResourceTool.name];

export type ToolName = keyof typeof TOOLS;

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name);
}

/** The tool the model named, or undefined for an unknown name (not one from Object's prototype). */
export function getTool(name: string, tools: ToolSet = TOOLS): ToolDefinition | undefined {
  return Object.hasOwn(tools, name) ? tools[name] : undefined;
}

/** Tool name -> its parameter names (and `shared`, which every call may carry): what the XML parser recognises as tags. */
/** Each tool's name and its parameters' names: what the XML parser reads as a call. */
export type ToolGrammar = ReadonlyMap<string, ReadonlySet<string>>;

export function toolGrammar(tools: ToolSet = TOOLS, shared: readonly string[] = []): ToolGrammar {
  return new Map(Object.values(tools).map((tool) => [tool.name, new Set([...tool.params.map((p) => p.name), ...shared])]));
}

/** The tools as native function-calling specs. Every parameter is a string, as in the XML format. */
export function toolSpecs(tools: ToolSet = TOOLS): ToolSpec[] {
  return Object.values(tools).map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(
        tool.params.map((p) => [p.name, { type: "string", description: p.description }]),
      ),
      required: tool.params.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    },
  }));
}
