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
  /**
   * Set by the Task, never by the parsers: the answer ended before this call was complete (its
   * closing tag never came, or a native call's arguments are not whole JSON).
   */
  cutOff?: CutOff;
}

/** How a tool call was cut off; the ToolExecutor decides from it whether the call may still run. */
export interface CutOff {
  /** Why the answer ended: the provider's stop reason, or "interrupted" for a lost stream. */
  readonly reason: "max_tokens" | "ended" | "interrupted";
  /** The parameter whose closing tag never came (its value may be short); none when all closed. */
  readonly unclosedParam?: string;
  /** A native call whose arguments are not complete JSON: none of them can be trusted. */
  readonly incompleteArguments?: boolean;
}

export type AssistantMessageContent = TextContent | ToolUse;

/** Which tool names and which parameter names of each the parser recognises. */
export type ToolGrammar = ReadonlyMap<string, ReadonlySet<string>>; // tool name -> its param names
