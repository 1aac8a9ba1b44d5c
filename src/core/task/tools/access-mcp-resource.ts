/**
 * access_mcp_resource: reads a resource of a connected MCP server by its URI (a listed resource,
 * or a template filled in). Read-only; approval category "mcp" like the server's tools.
 */
import { param } from "./params";
import { defineTool, ToolError } from "./types";
import { connectedServer } from "./use-mcp-tool";
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
    return {
      approval: { message: { tool: "access_mcp_resource", mcp: { server: server.name, uri }, content: uri } },
      run: async () => {
        try {
          return { kind: "ok", content: resourceResultBlocks(uri, await hub.readResource(server.name, uri, { signal: ctx.signal })) };
        } catch (error) {
          throw mcpFailure(error);
        }
      },
    };
  },
});
