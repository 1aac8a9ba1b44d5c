/** What a task uses of the MCP hub: the Controller owns the hub and lends it to the tools through the MCP participant. */
import type { CallToolOptions } from "./mcp-hub";
import type { McpResourceResult, McpServerSnapshot, McpToolResult } from "./types";

/**
 * What a task uses of the MCP hub (`McpHub` fits this as it is):
 * the wait before a request, the servers for the prompt and the native specs, the calls.
 */
export interface McpServers {
  waitForConnections(timeoutMs: number): Promise<{ readonly stillConnecting: readonly string[] }>;
  servers(): readonly McpServerSnapshot[];
  /** Validates `args` against the tool's input schema, applies the server's timeout; throws McpCallError. */
  callTool(server: string, tool: string, args: unknown, options?: CallToolOptions): Promise<McpToolResult>;
  readResource(server: string, uri: string, options?: { signal?: AbortSignal }): Promise<McpResourceResult>;
  /** A prompt's messages as text (the `/mcp:server:prompt` command). */
  getPrompt(server: string, prompt: string, args: Record<string, string>, options?: { signal?: AbortSignal }): Promise<string>;
}
