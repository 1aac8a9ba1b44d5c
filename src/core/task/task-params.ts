/** What the Controller hands a Task: its model, host, tools, guard, settings and where it saves. */
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { AgentSettings } from "../../shared/settings";
import type { LoadedRules } from "../context/rules";
import type { WorkspaceHooks } from "../hooks";
import type { CallToolOptions, McpResourceResult, McpServerSnapshot, McpToolResult } from "../mcp";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import type { TaskStorage } from "../storage/task-storage";
import type { RetryOptions } from "./api-request-retrier";
import type { ChatListener } from "./message-state";
import type { PathGuard, ToolDefinition } from "./tools/types";
import type { AgentMode, TaskMode } from "./mode";
import type { SlashCommands } from "../slash";

/** A task's view of the checkpoint store (core/checkpoints): its commits of the workspace. */
export interface CheckpointRepository {
  /** The workspace as the task found it (a resumed task: its existing first checkpoint). */
  initialize(): Promise<string>;
  /** The workspace now; `changed` false (and no new commit) when nothing changed since the last. */
  save(label: string): Promise<{ hash: string; changed: boolean }>;
}

/**
 * What a task uses of the MCP hub (the Controller owns the hub; `McpHub` fits this as it is):
 * the wait before a request, the servers for the prompt and the native specs, the calls.
 */
export interface McpServers {
  waitForConnections(timeoutMs: number): Promise<{ readonly stillConnecting: readonly string[] }>;
  servers(): readonly McpServerSnapshot[];
  /** Validates `args` against the tool's input schema, applies the server's timeout; throws McpCallError. */
  callTool(server: string, tool: string, args: unknown, options?: CallToolOptions): Promise<McpToolResult>;
  readResource(server: string, uri: string, options?: { signal?: AbortSignal }): Promise<McpResourceResult>;
  /** A prompt's messages as text (the `/mcp:server:prompt` command). */
  getPrompt(server: string, prompt: string, args: Record<string, string>, options?: { signal?: AbortSignal }): Promise<string>;
}

export interface TaskParams {
  taskId: string;
  api: ApiHandler;
  host: HostBridge;
  tools: Readonly<Record<string, ToolDefinition>>;
  /** Paths tools must not touch; none ignores nothing. */
  ignore?: PathGuard;
  /** The OS sandbox commands run in; none runs them unconfined. */
  commandSandbox?: CommandSandbox;
  /** Read on every decision, so a settings change applies to the running task. */
  settings: () => AgentSettings;
  /** Built for each request, with the rules as read just before it, for the task's mode then. */
  systemPrompt: (rules: LoadedRules, mode: AgentMode) => string;
  /** The task's Plan/Act mode (saved with it); none: Act, not saved. */
  mode?: TaskMode;
  /** Reads the rules files and custom instructions (core/context/rules.ts); none: no rules. */
  rules?: () => Promise<LoadedRules>;
  /** The slash commands the person's messages may start with (core/slash); none: the built-ins and the workspace's workflows. */
  slash?: SlashCommands;
  listener: ChatListener;
  storage?: TaskStorage;
  /** Opens the task's checkpoints; none, or undefined (they cannot work here, and the person was told), runs without them; a rejection is said in the chat. */
  checkpoints?: () => Promise<CheckpointRepository | undefined>;
  /** The MCP servers (the Controller's hub): waited for before each request, offered as tools. */
  mcp?: McpServers;
  /** The hooks (the Controller's: the global folder, workspace trust); none: only untrusted workspace hooks, which do not run. */
  hooks?: WorkspaceHooks;
  /** How long a request waits for servers still connecting (default 10 s; tests shorten it). */
  mcpConnectWaitMs?: number;
  retry?: Partial<RetryOptions>;
  /** Interval between partial UI updates of streamed text (first token and tool blocks go at once). */
  partialUpdateIntervalMs?: number;
}
