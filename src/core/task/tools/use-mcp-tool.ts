/**
 * use_mcp_tool: calls a tool of a connected MCP server. The hub checks the arguments against the
 * tool's input schema, applies the server's timeout and cancels with the task (the server is sent
 * notifications/cancelled). Approval category "mcp": the useMcp switch, the server's autoApprove
 * list or YOLO let it run unasked. Not read-only: a server's tool may change anything (Plan mode runs
 * only the tools a server marks readOnlyHint). The approval row names the server and the tool (with
 * its description) and shows the arguments; once the call ran, a row of its own shows what the tool
 * returned, bounded for the panel (`mcp-result-view.ts`).
 */
import { toolNames } from "../../mcp/prompt-section";
import type { McpProgress, McpServerSnapshot } from "../../mcp/types";
import { param } from "./params";
import { defineTool, ToolError, type ToolContext } from "./types";
import { toolResultView } from "./mcp-result-view";
import { mcpFailure, toolResultBlocks } from "./use-mcp-tool-content";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const useMcpToolTool = defineTool({
  name: "use_mcp_tool",
  description:
    "Call a tool of a connected MCP server (listed under MCP SERVERS). The arguments are one JSON object matching the tool's signature. " +
    "Needs the person's approval unless they allowed MCP tools.",
  params: [
    param.text("server_name", "The server's name, as MCP SERVERS lists it.", { required: true }),
    param.text("tool_name", "The tool's name on that server.", { required: true }),
    param.json("arguments", "The tool's arguments as a JSON object (leave out for none).", { shape: "a JSON object", fits: isObject }),
  ],
  readOnly: false,
  approval: "mcp",
  // Plan mode runs a server's tool only when the server says it only reads (MCP's readOnlyHint).
  isReadOnlyCall(params, ctx) {
    const server = ctx.mcp?.servers().find((s) => s.name === params.server_name?.trim());
    return server?.tools.find((t) => t.name === params.tool_name?.trim())?.annotations?.readOnlyHint === true;
  },
  // A refused call's row still names the server and the tool, with the arguments as given.
  shownWhenNotRun(params, ctx) {
    const server = params.server_name?.trim() ?? "";
    const toolName = params.tool_name?.trim() ?? "";
    const listed = ctx.mcp?.servers().find((s) => s.name === server)?.tools.find((t) => t.name === toolName);
    const args = params.arguments?.trim();
    return { mcp: { server, tool: toolName, ...describedAs(listed?.description) }, ...(args ? { content: indented(args) } : {}) };
  },
  example: '<use_mcp_tool>\n<server_name>weather</server_name>\n<tool_name>forecast</tool_name>\n<arguments>{"city": "Lisbon", "days": 3}</arguments>\n</use_mcp_tool>',
  async prepare(params, ctx) {
    const server = connectedServer(ctx, params.server_name.trim());
    const toolName = params.tool_name.trim();
    const tool = server.tools.find((t) => t.name === toolName);
    if (!tool) throw new ToolError("not_found", `The MCP server "${server.name}" has no tool "${toolName}". Its tools: ${toolNames(server.tools)}.`);
    const args = params.arguments ?? {};
    const where = `${server.name}/${toolName}`;
    const shown = { server: server.name, tool: toolName, ...describedAs(tool.description) };
    return {
      approval: {
        message: { tool: "use_mcp_tool", mcp: shown, content: JSON.stringify(args, null, 2) },
        allowedByConfig: tool.autoApprove,
      },
      run: async () => {
        const progress = progressRow(ctx, where);
        try {
          const result = await mcp(ctx).callTool(server.name, toolName, args, { signal: ctx.signal, onProgress: progress.show });
          await progress.end();
          // The person sees what the tool answered on a row of its own, below the approval.
          const whole = await keptWhole(ctx, `mcp-${where}`, result.fullText);
          await ctx.say("tool", undefined, { tool: { tool: "use_mcp_tool", mcp: { ...shown, result: { ...toolResultView(result), ...whole } } } });
          return { kind: "ok", content: toolResultBlocks(where, result), ...(result.isError ? { isError: true } : {}) };
        } catch (error) {
          throw mcpFailure(error);
        } finally {
          await progress.end();
        }
      },
    };
  },
});

/** JSON as the approval shows it (indented); text that is not JSON as it came. */
function indented(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** A tool's or resource's description for the row's hover, bounded (a server may write pages). */
export function describedAs(description: string | undefined): { description?: string } {
  const text = description?.trim();
  if (!text) return {};
  return { description: text.length > 1000 ? `${text.slice(0, 1000)}…` : text };
}

function mcp(ctx: ToolContext): NonNullable<ToolContext["mcp"]> {
  if (!ctx.mcp) throw new ToolError("not_allowed", "No MCP servers are set up in this session, so there is nothing to call.");
  return ctx.mcp;
}

/** The server the model named, connected; otherwise its mistake (unknown) or a failure it must hear (not connected). */
export function connectedServer(ctx: ToolContext, name: string): McpServerSnapshot {
  const servers = mcp(ctx).servers();
  const server = servers.find((s) => s.name === name);
  if (!server) throw new ToolError("not_found", `There is no MCP server "${name}". Servers: ${servers.map((s) => s.name).join(", ") || "none"}.`);
  if (server.state !== "connected") {
    const why = server.error ? `: ${server.error}` : "";
    throw new Error(`The MCP server "${name}" is ${server.state}${why}. Its tools cannot be used now: go on without them, or tell the person.`);
  }
  return server;
}

/**
 * Progress notifications as one info row, updated in place (each update replaces that row only);
 * finished when the call ends, so it does not spin on (ending it twice ends it once).
 */
function progressRow(ctx: ToolContext, where: string): { show(progress: McpProgress): void; end(): Promise<void> } {
  let last: string | undefined;
  let shown = Promise.resolve();
  return {
    show(progress) {
      const of = progress.total !== undefined ? ` of ${progress.total}` : "";
      last = `${where}: progress ${progress.progress}${of}${progress.message ? ` — ${progress.message}` : ""}`;
      const text = last;
      shown = shown.then(() => ctx.say("info", text, { partial: true }));
    },
    // Once: called before the result's row and again on the way out (a failure, a cancel).
    async end() {
      await shown;
      const text = last;
      last = undefined;
      if (text !== undefined) await ctx.say("info", text, { partial: false });
    },
  };
}

/** A result cut for the model: its whole text kept in the task's folder, for the person's row (`whole`). */
export async function keptWhole(ctx: ToolContext, name: string, fullText: string | undefined): Promise<{ whole?: { path: string; chars: number } }> {
  if (fullText === undefined) return {};
  const path = await ctx.keepWhole(name, fullText);
  return path ? { whole: { path, chars: fullText.length } } : {};
}
