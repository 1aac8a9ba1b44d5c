/**
 * The system prompt's MCP section: connected servers with their tools as compact signatures
 * (`get-sum(a: number, b: number)` instead of the JSON schema, which costs several times as many
 * tokens), their resources and templates, and a line for servers still connecting or failed, so
 * the model neither calls a tool that is not there yet nor invents one. Every part is bounded:
 * a server with 500 resources must not take over the prompt.
 */
import type { McpServerSnapshot, McpToolInfo } from "./types";

const MAX_DESCRIPTION = 300;
const MAX_RESOURCES = 20;
const MAX_INSTRUCTIONS = 1000;
/** A tool's, resource's or template's name or URI, and a tool's parameter list. */
const MAX_NAME = 120;
const MAX_SIGNATURE = 500;
/** Characters of full tool lines, all servers together (about 6k tokens); the tools past it are named only. */
export const FULL_TOOLS_BUDGET = 24_000;
/** Characters of those names; the tools past it are counted. */
const NAMES_BUDGET = 12_000;

export function describeServersForPrompt(servers: readonly McpServerSnapshot[]): string {
  const connected = servers.filter((s) => s.state === "connected");
  const connecting = servers.filter((s) => s.state === "connecting");
  const failed = servers.filter((s) => s.state === "failed");
  if (connected.length + connecting.length + failed.length === 0) return "";
  const out = [
    "MCP SERVERS",
    "",
    "Tools of connected MCP servers run through use_mcp_tool (server_name, tool_name, arguments as a JSON object matching the signature); resources are read with access_mcp_resource (server_name, uri). A parameter marked ? is optional.",
  ];
  const budget = { full: FULL_TOOLS_BUDGET, names: NAMES_BUDGET };
  for (const server of connected) out.push("", ...describeServer(server, budget));
  if (connecting.length > 0) {
    out.push("", `Still connecting (their tools are not available yet): ${connecting.map((s) => s.name).join(", ")}.`);
  }
  for (const server of failed) out.push("", `Failed, not available: ${server.name} (${oneLine(server.error ?? "unknown error", 200)}).`);
  return out.join("\n");
}

/**
 * One server's part. Its tools are described in full while the section's budget lasts, then
 * named only (a call answers with the tool's signature: mcp-hub.ts), then counted.
 */
function describeServer(server: McpServerSnapshot, budget: { full: number; names: number }): string[] {
  const out = [`## ${oneLine(server.name, MAX_NAME)}`];
  if (server.instructions) out.push(bounded(server.instructions, MAX_INSTRUCTIONS));
  if (server.tools.length > 0) {
    out.push("Tools:");
    const named: string[] = [];
    let uncounted = 0;
    for (const tool of server.tools) {
      const line = describeTool(tool);
      if (named.length === 0 && line.length <= budget.full) {
        out.push(line);
        budget.full -= line.length + 1;
        continue;
      }
      budget.full = 0;
      const name = oneLine(tool.name, MAX_NAME);
      if (name.length + 2 <= budget.names) {
        named.push(name);
        budget.names -= name.length + 2;
      } else uncounted++;
    }
    if (named.length > 0) out.push(`- Also, by name only (a call with the wrong arguments answers with the tool's parameters and description): ${named.join(", ")}`);
    if (uncounted > 0) out.push(`- … and ${uncounted} more tools, not listed: the server offers too many to name here`);
  }
  if (server.resources.length > 0) {
    out.push("Resources:");
    for (const r of server.resources.slice(0, MAX_RESOURCES)) {
      const uri = oneLine(r.uri, MAX_NAME);
      const name = r.name ? oneLine(r.name, MAX_NAME) : undefined;
      out.push(`- ${uri}${name && r.name !== r.uri ? ` (${name})` : ""}`);
    }
    if (server.resources.length > MAX_RESOURCES) out.push(`- … and ${server.resources.length - MAX_RESOURCES} more`);
  }
  if (server.resourceTemplates.length > 0) {
    out.push("Resource templates:");
    for (const t of server.resourceTemplates.slice(0, MAX_RESOURCES)) {
      out.push(`- ${oneLine(t.uriTemplate, MAX_NAME)}${t.description ? ` — ${oneLine(t.description, MAX_DESCRIPTION)}` : ""}`);
    }
    if (server.resourceTemplates.length > MAX_RESOURCES) out.push(`- … and ${server.resourceTemplates.length - MAX_RESOURCES} more`);
  }
  return out;
}

/** A tool's line: its name, compact parameters and description, each bounded. */
export function describeTool(tool: Pick<McpToolInfo, "name" | "title" | "description" | "inputSchema">): string {
  const description = tool.description ?? tool.title;
  return `- ${oneLine(tool.name, MAX_NAME)}(${oneLine(compactParams(tool.inputSchema), MAX_SIGNATURE)})${description ? ` — ${oneLine(description, MAX_DESCRIPTION)}` : ""}`;
}

/** A server's tool names for an error message: at most 50, each bounded. */
export function toolNames(tools: readonly { readonly name: string }[]): string {
  if (tools.length === 0) return "none";
  const shown = tools.slice(0, 50).map((t) => oneLine(t.name, MAX_NAME));
  return tools.length > 50 ? `${shown.join(", ")} and ${tools.length - 50} more` : shown.join(", ");
}

/** `a: number, b?: "x"|"y"` from an object schema. */
export function compactParams(schema: Readonly<Record<string, unknown>>): string {
  const properties = asRecord(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties)
    .map(([name, prop]) => `${name}${required.has(name) ? "" : "?"}: ${compactType(asRecord(prop), 0)}`)
    .join(", ");
}

function compactType(schema: Record<string, unknown>, depth: number): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) return union.map((s) => compactType(asRecord(s), depth)).join("|");
  const type = Array.isArray(schema.type) ? schema.type.join("|") : typeof schema.type === "string" ? schema.type : "any";
  if (type === "array") return `${wrap(compactType(asRecord(schema.items), depth))}[]`;
  if (type === "object" && schema.properties && depth < 2) return `{${compactParams(schema)}}`;
  return type;
}

function wrap(type: string): string {
  return type.includes("|") ? `(${type})` : type;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The server's own text, its line breaks kept (it is often markdown), blank runs folded. */
function bounded(text: string, max: number): string {
  const tidy = text.replace(/\n\s*\n+/g, "\n").trim();
  return tidy.length > max ? `${tidy.slice(0, max - 1)}…` : tidy;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
