/**
 * MCP's place in the loop (the seed's attemptApiRequest): before each request, wait up to 10 s for
 * servers still connecting, then say once which are still not there and go on; in native mode,
 * offer the connected servers' tools as functions and map a call of one back to use_mcp_tool.
 */
import type { ToolSpec } from "../../api/types";
import { MCP_TOOL_NAMES } from "./tools/registry";
import { mcpFunctions, NO_MCP_FUNCTIONS, type McpFunctions } from "./mcp-functions";
import type { McpServers } from "./task-params";
import type { ToolCall } from "./tool-executor";

export const MCP_CONNECT_WAIT_MS = 10_000;

export interface McpInLoopDeps {
  readonly mcp?: McpServers;
  readonly waitMs?: number;
  readonly signal: AbortSignal;
  /** The tool names the task offers, which a function name must not take. */
  readonly toolNames: readonly string[];
  note(text: string): Promise<unknown>;
}

export class McpInLoop {
  /** The functions offered with the last request: a call is mapped by what the model was offered. */
  private functions: McpFunctions = NO_MCP_FUNCTIONS;
  /** Servers the chat was told are still connecting (once each per task). */
  private readonly told = new Set<string>();

  constructor(private readonly deps: McpInLoopDeps) {}

  /** Whether the task offers the MCP tools at all. */
  get enabled(): boolean {
    return this.deps.mcp !== undefined && MCP_TOOL_NAMES.every((name) => this.deps.toolNames.includes(name));
  }

  /** Waits (bounded, and no longer than the task runs) for servers still connecting; says which are not there yet. */
  async beforeRequest(): Promise<void> {
    const { mcp, signal } = this.deps;
    if (!mcp || !this.enabled || signal.aborted) return;
    const waitMs = this.deps.waitMs ?? MCP_CONNECT_WAIT_MS;
    let onAbort = () => {};
    const aborted = new Promise<undefined>((resolve) => signal.addEventListener("abort", (onAbort = () => resolve(undefined)), { once: true }));
    const waited = await Promise.race([mcp.waitForConnections(waitMs), aborted]);
    signal.removeEventListener("abort", onAbort);
    const fresh = (waited?.stillConnecting ?? []).filter((name) => !this.told.has(name));
    if (fresh.length === 0) return;
    for (const name of fresh) this.told.add(name);
    const seconds = Math.round(waitMs / 100) / 10;
    await this.deps.note(`MCP: still connecting after ${seconds} s, going on without ${fresh.length === 1 ? "the server" : "the servers"} ${fresh.join(", ")} for now.`);
  }

  /** The connected servers' tools as native functions, for this request. */
  nativeSpecs(): readonly ToolSpec[] {
    const { mcp } = this.deps;
    this.functions = mcp && this.enabled ? mcpFunctions(mcp.servers(), new Set(this.deps.toolNames)) : NO_MCP_FUNCTIONS;
    return this.functions.specs;
  }

  /** A call of an MCP function as the use_mcp_tool call it stands for; undefined for any other name. */
  aliasCall(call: ToolCall): ToolCall | undefined {
    const target = this.functions.resolve(call.name);
    if (!target) return undefined;
    const bad = call.params.__invalid_arguments;
    const named: Record<string, string> = { server_name: target.server, tool_name: target.tool };
    const params = bad !== undefined ? { ...named, __invalid_arguments: bad } : { ...named, arguments: JSON.stringify(call.input ?? {}) };
    return { ...call, name: "use_mcp_tool", params };
  }
}
