/**
 * MCP's place in the loop (the seed's attemptApiRequest): before each request, wait up to 10 s for
 * servers still connecting, then say once which are still not there and go on; the system
 * prompt's section on the connected servers' tools; in native mode, those tools as functions,
 * and a call of one mapped back to use_mcp_tool. It lends the tools the servers (use_mcp_tool,
 * access_mcp_resource). Assembled only when the session has a hub and the task offers its tools.
 */
import type { ToolSpec } from "../../../api/types";
import { describeServersForPrompt, type McpServers } from "../../mcp";
import type { LentServices, PromptRequest, TaskParticipant } from "../../task/participant";
import type { ToolCall } from "../../task/tool-call";
import type { TaskScope } from "../../task/task-scope";
import { mcpFunctions, NO_MCP_FUNCTIONS, type McpFunctions } from "./mcp-functions";

export const MCP_CONNECT_WAIT_MS = 10_000;

export class McpInLoop implements TaskParticipant {
  readonly name = "mcp";
  readonly lends: LentServices;
  /** The functions offered with the last request: a call is mapped by what the model was offered. */
  private functions: McpFunctions = NO_MCP_FUNCTIONS;
  /** Servers the chat was told are still connecting (once each per task). */
  private readonly told = new Set<string>();

  constructor(
    private readonly scope: TaskScope,
    private readonly mcp: McpServers,
    /** The tool names the task offers, which a function name must not take. */
    private readonly toolNames: readonly string[],
    private readonly waitMs = MCP_CONNECT_WAIT_MS,
  ) {
    this.lends = { mcp };
  }

  /** Waits (bounded, and no longer than the task runs) for servers still connecting, then describes the servers. */
  async systemPrompt(request: PromptRequest): Promise<readonly string[]> {
    await this.waitForServers();
    const servers = describeServersForPrompt(this.mcp.servers());
    if (!servers) return [];
    if (request.toolCallMode !== "native") return [servers];
    return [`${servers}\n\nEach of these tools is also offered as a function named mcp__<server>__<tool>; calling it is the same as use_mcp_tool.`];
  }

  /** The connected servers' tools as native functions, for this request. */
  toolSpecs(specs: readonly ToolSpec[]): readonly ToolSpec[] {
    this.functions = mcpFunctions(this.mcp.servers(), new Set(this.toolNames));
    return [...specs, ...this.functions.specs];
  }

  /** A call of an MCP function as the use_mcp_tool call it stands for; undefined for any other name. */
  resolveCall(call: ToolCall): ToolCall | undefined {
    const target = this.functions.resolve(call.name);
    if (!target) return undefined;
    const bad = call.params.__invalid_arguments;
    const named: Record<string, string> = { server_name: target.server, tool_name: target.tool };
    const params = bad !== undefined ? { ...named, __invalid_arguments: bad } : { ...named, arguments: JSON.stringify(call.input ?? {}) };
    return { ...call, name: "use_mcp_tool", params };
  }

  private async waitForServers(): Promise<void> {
    const { signal } = this.scope;
    if (signal.aborted) return;
    let onAbort = () => {};
    const aborted = new Promise<undefined>((resolve) => signal.addEventListener("abort", (onAbort = () => resolve(undefined)), { once: true }));
    const waited = await Promise.race([this.mcp.waitForConnections(this.waitMs), aborted]);
    signal.removeEventListener("abort", onAbort);
    const fresh = (waited?.stillConnecting ?? []).filter((name) => !this.told.has(name));
    if (fresh.length === 0) return;
    for (const name of fresh) this.told.add(name);
    const seconds = Math.round(this.waitMs / 100) / 10;
    await this.scope.say("info", `MCP: still connecting after ${seconds} s, going on without ${fresh.length === 1 ? "the server" : "the servers"} ${fresh.join(", ")} for now.`);
  }
}
