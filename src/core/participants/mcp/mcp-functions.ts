/**
 * Native tool-call mode: each tool of a connected MCP server is also offered as a function of its
 * own, `mcp__<server>__<tool>`, with the tool's own input schema, so the model fills the
 * arguments as for any function. Names keep to what every provider accepts (letters, digits, _
 * and -, at most 64); one too long or taken gets a short hash of server and tool instead of its end.
 */
import { createHash } from "node:crypto";
import type { ToolSpec } from "../../../api/types";
import type { McpServerSnapshot } from "../../mcp/types";

const MAX_NAME = 64;
const PREFIX = "mcp__";

export interface McpFunctions {
  readonly specs: readonly ToolSpec[];
  /** The server tool a function name stands for. */
  resolve(name: string): { readonly server: string; readonly tool: string } | undefined;
}

export const NO_MCP_FUNCTIONS: McpFunctions = { specs: [], resolve: () => undefined };

export function mcpFunctions(servers: readonly McpServerSnapshot[], taken: ReadonlySet<string> = new Set()): McpFunctions {
  const byName = new Map<string, { server: string; tool: string }>();
  const specs: ToolSpec[] = [];
  for (const server of servers) {
    if (server.state !== "connected") continue;
    for (const tool of server.tools) {
      const name = uniqueName(server.name, tool.name, (n) => byName.has(n) || taken.has(n));
      byName.set(name, { server: server.name, tool: tool.name });
      specs.push({
        name,
        description: `${server.name} (MCP): ${tool.description ?? tool.title ?? tool.name}`.slice(0, 1024),
        inputSchema: { type: "object", ...tool.inputSchema },
      });
    }
  }
  return { specs, resolve: (name) => byName.get(name) };
}

function uniqueName(server: string, tool: string, isTaken: (name: string) => boolean): string {
  const plain = `${PREFIX}${clean(server)}__${clean(tool)}`;
  if (plain.length <= MAX_NAME && !isTaken(plain)) return plain;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex");
  for (let length = 8; ; length += 4) {
    const suffix = `_${hash.slice(0, length)}`;
    const name = `${plain.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!isTaken(name) || length >= hash.length) return name;
  }
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}
