/**
 * The blocks an assistant answer is cut into: prose, and tool calls written as XML in the text
 * (`<read_file><path>src/a.ts</path></read_file>`). Shared by the pure and the incremental parser.
 */

export interface TextContent {
  type: "text";
  content: string;
  partial: boolean;
}

export interface ToolUse {
  type: "tool_use";
  name: string;
  params: Record<string, string>;
  partial: boolean;
}

export type AssistantMessageContent = TextContent | ToolUse;

/** Which tool names and which parameter names of each the parser recognises. */
export type ToolGrammar = ReadonlyMap<string, ReadonlySet<string>>; // tool name -> its param names
