import type * as Sdk from "./sdk";

export type McpSdk = typeof Sdk;

let sdk: Promise<McpSdk> | undefined;

/** The MCP SDK's runtime (sdk.ts), evaluated on the first call. */
export function loadMcpSdk(): Promise<McpSdk> {
  return (sdk ??= import("./sdk"));
}
