/**
 * The MCP hub's public data: what a configuration file says, what the panel and the prompt see
 * of each server, and what a tool call returns to the model. Plain data only, so it can cross
 * to the webview and into tests unchanged.
 */

export type McpTransportType = "stdio" | "sse" | "streamableHttp";

/** Where a server's configuration came from: the person's global file or the workspace's. */
export type McpConfigSource = "global" | "workspace";

/** One validated server entry of a configuration file (Cline's format). */
export interface McpServerConfig {
  readonly type: McpTransportType;
  /** True when the file named no type and the URL decides (Streamable HTTP, then SSE). */
  readonly typeInferred: boolean;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly disabled: boolean;
  /** Tool names that run without asking. */
  readonly autoApprove: readonly string[];
  /** Seconds a tool call may take. */
  readonly timeoutSeconds: number;
  /** Run a stdio server inside the OS command sandbox; where there is none it fails rather than run unconfined. */
  readonly sandbox: boolean;
}

export const DEFAULT_TOOL_TIMEOUT_SECONDS = 60;

/** A problem in a configuration file, located for the person: file, line, column. */
export interface McpConfigProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The whole sentence, e.g. `mcp.json line 7: server "db": "timeout" must be a number of seconds`. */
  readonly message: string;
}

export type McpServerState = "connecting" | "connected" | "disabled" | "failed" | "untrusted";

export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The server's hints (readOnlyHint, destructiveHint, …), for the approval policy. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** Listed in the server's `autoApprove`. */
  readonly autoApprove: boolean;
}

export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface McpResourceTemplateInfo {
  readonly uriTemplate: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface McpPromptInfo {
  readonly name: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}

/** What the panel and the system prompt see of one server, at one moment. */
export interface McpServerSnapshot {
  readonly name: string;
  readonly source: McpConfigSource;
  /** The file the server is configured in (where "always allow" is written back). */
  readonly configFile: string;
  readonly state: McpServerState;
  readonly type: McpTransportType;
  /** Why it failed (or, while connecting, what it waits for, e.g. authorization). */
  readonly error?: string;
  /** The last lines of a stdio server's stderr (bounded), to explain a failure. */
  readonly stderrTail?: string;
  readonly timeoutSeconds: number;
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** The server's own instructions for the model (from initialize), if any. */
  readonly instructions?: string;
  readonly tools: readonly McpToolInfo[];
  readonly resources: readonly McpResourceInfo[];
  readonly resourceTemplates: readonly McpResourceTemplateInfo[];
  readonly prompts: readonly McpPromptInfo[];
}

/** One piece of a tool result or resource, shaped for the model. */
export type McpContent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "resource"; readonly uri: string; readonly mimeType?: string; readonly text: string }
  | {
      readonly type: "resource_link";
      readonly uri: string;
      readonly name: string;
      readonly description?: string;
      readonly mimeType?: string;
    };

export interface McpToolResult {
  /** The tool reported a failure (the call itself worked): the model should read it as an error. */
  readonly isError: boolean;
  readonly content: readonly McpContent[];
  /** The tool's structured output; dropped (with `structuredContentOmitted`) when too large. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly structuredContentOmitted?: boolean;
  /** Characters of text removed from the middle to keep the result within bounds (0: none). */
  readonly omittedChars: number;
  /** When text was cut: all of it, for the person to read (the task keeps it in a file); the model never gets it. */
  readonly fullText?: string;
}

export interface McpResourceResult {
  readonly contents: readonly McpContent[];
  readonly omittedChars: number;
  /** As McpToolResult's. */
  readonly fullText?: string;
}

/** Progress a server reports during a call (`notifications/progress`). */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Why a hub call failed; the tools turn these into tool errors for the model. */
export type McpCallErrorCode =
  | "unknown_server"
  | "not_connected"
  | "unknown_tool"
  | "invalid_arguments"
  | "timeout"
  | "cancelled"
  | "connection_lost"
  | "unauthorized"
  | "server_error";

/** Characters of an error message kept: a server's error text goes to the model, and a server may send megabytes. */
export const MAX_ERROR_CHARS = 2_000;

export class McpCallError extends Error {
  constructor(
    readonly code: McpCallErrorCode,
    message: string,
  ) {
    super(message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}… [${message.length - MAX_ERROR_CHARS} more characters of the error not shown]` : message);
    this.name = "McpCallError";
  }
}
