/** What the rest of Tandem uses of MCP (the Controller, the tools, the panel's session, the CLI). */
export { McpHub, type McpHubOptions, type McpHubState, type CallToolOptions, type WorkspaceTrustRequest } from "./mcp-hub";
export { describeServersForPrompt, describeTool, compactParams, toolNames } from "./prompt-section";
export { loadMcpConfigFile, parseMcpConfig, type McpConfigResult } from "./mcp-config";
export type { McpOAuthHost, McpSecretStore } from "./oauth-provider";
export type { WatchFile } from "./config-watcher";
export { sandboxRefusal, type ConfinedLaunch, type McpServerSandbox } from "./server-sandbox";
export type { StdioLaunch } from "./stdio-transport";
export { DEFAULT_RESULT_LIMITS, type ResultLimits } from "./tool-result";
export * from "./types";
export type { McpServers } from "./servers";
