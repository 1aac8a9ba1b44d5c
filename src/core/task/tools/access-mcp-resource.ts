/**
 * access_mcp_resource: reads a resource of a connected MCP server by its URI (a listed resource,
 * or a template filled in). Read-only; approval category "mcp" like the server's tools. The
 * approval row names the server and the URI; what was read is shown on a row of its own.
 */
import type { McpServerSnapshot } from "../../mcp/types";
import { param } from "./params";
import { defineTool, ToolError } from "./types";
import { resourceResultView } from "./mcp-result-view";
import { connectedServer, describedAs, keptWhole } from "./use-mcp-tool";
import { mcpFailure, resourceResultBlocks } from "./use-mcp-tool-content";

export const accessMcpResourceTool = defineTool({
  name: "access_mcp_resource",
  description: "Read a resource of a connected MCP server (listed under MCP SERVERS, or a resource template with its placeholders filled in). Needs the person's approval unless they allowed MCP.",
  params: [
    param.text("server_name", "The server's name, as MCP SERVERS lists it.", { required: true }),
    param.text("uri", "The resource's URI.", { required: true }),
  ],
  readOnly: true,
  approval: "mcp",
  example: "<access_mcp_resource>\n<server_name>docs</server_name>\n<uri>docs://guide/install</uri>\n</access_mcp_resource>",
  async prepare(params, ctx) {
    const server = connectedServer(ctx, params.server_name.trim());
    const uri = params.uri.trim();
    if (!ctx.mcp) throw new ToolError("not_allowed", "No MCP servers are set up in this session.");
    const hub = ctx.mcp;
    const shown = { server: server.name, uri, ...describedAs(describeResource(server, uri)) };
    return {
      approval: { message: { tool: "access_mcp_resource", mcp: shown, content: uri } },
      run: async () => {
        try {
          const result = await hub.readResource(server.name, uri, { signal: ctx.signal });
          const whole = await keptWhole(ctx, `mcp-${server.name}-resource`, result.fullText);
          await ctx.say("tool", undefined, { tool: { tool: "access_mcp_resource", mcp: { ...shown, result: { ...resourceResultView(result), ...whole } } } });
          return { kind: "ok", content: resourceResultBlocks(uri, result) };
        } catch (error) {
          throw mcpFailure(error);
        }
      },
    };
  },
});

/** What the server says of the resource (listed, or the template it fills in), for the row's hover. */
function describeResource(server: McpServerSnapshot, uri: string): string | undefined {
  const listed = server.resources.find((r) => r.uri === uri) ?? server.resourceTemplates.find((t) => fillsTemplate(t.uriTemplate, uri));
  return listed && (listed.description ?? listed.name);
}

/** Whether `uri` fills `template`'s placeholders (`{id}`: one path segment, `{+path}` / `{/path*}`: any text). */
function fillsTemplate(template: string, uri: string): boolean {
  const pattern = template
    .split(/(\{[^}]*\})/)
    .map((piece) => (piece.startsWith("{") ? (/^\{[+#/]|\*\}$/.test(piece) ? ".*" : "[^/?#]+") : piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`).test(uri);
}
