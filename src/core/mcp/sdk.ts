/**
 * What the hub runs of the MCP SDK, in one module that is evaluated only when a server first
 * connects (load-sdk.ts): the SDK's zod schemas and Ajv took 27 ms of every panel open, with or
 * without servers. Everywhere else the SDK is imported for its types only.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
export {
  ElicitRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
