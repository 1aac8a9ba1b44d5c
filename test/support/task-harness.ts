/**
 * Runs whole tasks through the real Controller, the real provider SDKs and the scripted model
 * server, in a temporary workspace. A test scripts the model's turns and, optionally, how the
 * "person" answers each question; every chat event is recorded for assertions.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApiHandler, type ApiConfiguration } from "../../src/api";
import type { ApiMessage } from "../../src/api/types";
import { Controller, type ControllerOptions } from "../../src/core/controller";
import { McpHub } from "../../src/core/mcp";
import { fixedSettings } from "../../src/core/controller/settings-source";
import { gitCheckpoints } from "../../src/core/checkpoints/checkpoint-service";
import type { CheckpointService } from "../../src/core/controller/checkpoints";
import type { TaskOutcome } from "../../src/core/task";
import type { RetryOptions } from "../../src/core/task/retry-policy";
import type { DiffViewHost, EditorHost, HostBridge, TerminalHost } from "../../src/host/bridge";
import { NodeHost } from "../../src/host/node/node-host";
import type { AskMessage, AskResponse, ChatMessage } from "../../src/shared/messages";
import type { AgentSettings } from "../../src/shared/settings";
import type { ToolDefinition } from "../../src/core/task/tools/types";
import type { HooksOptions } from "../../src/core/hooks";
import type { CommandSandbox } from "../../src/core/sandbox/command-sandbox";
import type { ScriptTurn } from "./script";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedModelServerOptions } from "./scripted-model-server";
import { nameRoots } from "../../src/core/util/workspace-roots";

export type Answerer = (ask: AskMessage) => AskResponse | undefined;

export interface HarnessOptions {
  provider: "anthropic" | "openai";
  turns: ScriptTurn[];
  settings?: Partial<AgentSettings>;
  /** How the person answers; undefined leaves the question open (answer it with `answer`). */
  answer?: Answerer;
  retry?: Partial<RetryOptions>;
  api?: Partial<ApiConfiguration>;
  /** Replaces the tool registry (e.g. to add a tool that blocks until cancelled). */
  tools?: Readonly<Record<string, ToolDefinition>>;
  /** Shortest pause between partial UI updates (default 5 ms). */
  partialUpdateIntervalMs?: number;
  /** The host's ripgrep (HostBridge.ripgrep); default: rg on PATH. */
  ripgrep?: string | false;
  /** An editor's diff view for the host (default: none, as in the CLI). */
  diffView?: DiffViewHost;
  /** An editor's files, tabs and problems for the host (default: none, as in the CLI). */
  editor?: EditorHost;
  /** The host's terminals (default: the Node terminal). */
  terminal?: TerminalHost;
  /** Checkpoints: true for the real git store in the harness's storage folder; a function wraps that store. */
  checkpoints?: boolean | ((git: CheckpointService) => CheckpointService);
  /**
   * MCP: a real hub over these servers (Cline's `mcpServers` entries, written to a global file in
   * the storage folder), started without waiting as the hosts do; `waitMs` shortens the 10 s wait.
   */
  mcp?: { servers: Record<string, unknown>; waitMs?: number; connectTimeoutMs?: number };
  /** Answers requests from what they carry, before the script (ScriptedModelServerOptions.respond). */
  respond?: ScriptedModelServerOptions["respond"];
  /** The rules files (ControllerOptions.rules); `globalFolder: true` is `<storage>/rules`. */
  rules?: { globalFolder?: string | true; files?: boolean };
  /** The workflows (ControllerOptions.workflows); `globalFolder: true` is `<storage>/workflows`. */
  workflows?: { globalFolder?: string | true };
  /** The hooks (ControllerOptions.hooks); `globalFolder: true` is `<storage>/hooks`. */
  hooks?: Omit<HooksOptions, "globalFolder"> & { globalFolder?: string | true };
  /** The skills (ControllerOptions.skills). */
  skills?: ControllerOptions["skills"];
  /** The OS sandbox commands (and workspace hooks) run in; the caller disposes it. */
  sandbox?: CommandSandbox;
  /** Who joins each task (ControllerOptions.participants; default: the assembly's PARTICIPANTS). */
  participants?: ControllerOptions["participants"];
  /** Adds to the Node host what an editor would report (a fake `editor`, terminals' `activity`). */
  wrapHost?: (host: HostBridge) => HostBridge;
}

export interface Harness {
  readonly server: ScriptedModelServer;
  readonly controller: Controller;
  readonly workspace: string;
  readonly storage: string;
  /** The MCP hub, with the `mcp` option. */
  readonly hub: McpHub | undefined;
  /** Every chat message as last seen, in order of first appearance. */
  readonly messages: ChatMessage[];
  /** Every ask as it was first shown. */
  readonly asks: AskMessage[];
  /** How many partial updates of streamed text reached the UI. */
  readonly partialTextUpdates: number;
  run(task: string): Promise<TaskOutcome>;
  start(task: string): Promise<void>;
  finished(): Promise<TaskOutcome>;
  apiHistory(): ApiMessage[];
  /** Resolves once an ask of this kind is open. */
  waitForAsk(kind: AskMessage["ask"], timeoutMs?: number): Promise<AskMessage>;
  dispose(): Promise<void>;
}

/** Answers yes to everything and finishes on completion: the person who approves all. */
export const approveAll: Answerer = () => ({ type: "yes" });

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const server = await startScriptedModelServer({ turns: options.turns, respond: options.respond });
  const workspace = await mkdtemp(join(tmpdir(), "tandem-ws-"));
  const storage = await mkdtemp(join(tmpdir(), "tandem-store-"));
  const messages: ChatMessage[] = [];
  const byTs = new Map<number, number>();
  const asks: AskMessage[] = [];
  const askWaiters: { kind: string; resolve: (ask: AskMessage) => void }[] = [];

  const hub = options.mcp ? await startMcpHub(storage, workspace, options.mcp) : undefined;
  let partialTextUpdates = 0;
  const seen = (message: ChatMessage, added: boolean) => {
    if (message.partial && message.type === "say" && message.say === "text") partialTextUpdates++;
    const copy = structuredClone(message);
    const index = byTs.get(message.ts);
    if (index === undefined) {
      byTs.set(message.ts, messages.length);
      messages.push(copy);
    } else messages[index] = copy;
    const isNewAsk = message.type === "ask" && !message.partial && (added || !asks.some((a) => a.ts === message.ts));
    if (isNewAsk && message.type === "ask") {
      asks.push(copy as AskMessage);
      for (const waiter of askWaiters.filter((w) => w.kind === message.ask)) {
        askWaiters.splice(askWaiters.indexOf(waiter), 1);
        waiter.resolve(copy as AskMessage);
      }
      const response = options.answer?.(message);
      if (response) queueMicrotask(() => controller.answer(message.ts, response));
    }
  };

  const controller: Controller = new Controller({
    host: (options.wrapHost ?? ((h: HostBridge) => h))(withEditor(new NodeHost(workspace, { ripgrep: options.ripgrep, terminal: options.terminal }), options)),
    settings: fixedSettings(
      {
        provider: options.provider,
        apiKey: "test-key",
        baseUrl: options.provider === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl,
        modelId: options.provider === "anthropic" ? "claude-sonnet-5-5" : "gpt-6.2-sol",
        streamIdleTimeoutMs: 2_000,
        ...options.api,
      },
      options.settings,
    ),
    createApiHandler: buildApiHandler,
    tools: options.tools,
    checkpoints: !options.checkpoints ? undefined : options.checkpoints === true ? gitCheckpoints(storage, () => nameRoots([{ path: workspace }])) : options.checkpoints(gitCheckpoints(storage, () => nameRoots([{ path: workspace }]))),
    storageRoot: storage,
    retry: { baseDelayMs: 5, maxDelayMs: 20, ...options.retry },
    partialUpdateIntervalMs: options.partialUpdateIntervalMs ?? 5,
    environment: { os: "Linux", shell: "/bin/bash" },
    mcp: hub,
    mcpConnectWaitMs: options.mcp?.waitMs,
    sandbox: options.sandbox,
    hooks: options.hooks && { ...options.hooks, globalFolder: options.hooks.globalFolder === true ? join(storage, "hooks") : options.hooks.globalFolder },
    workflows: options.workflows && { globalFolder: options.workflows.globalFolder === true ? join(storage, "workflows") : options.workflows.globalFolder },
    rules: options.rules && { ...options.rules, globalFolder: options.rules.globalFolder === true ? join(storage, "rules") : options.rules.globalFolder },
    skills: options.skills,
    participants: options.participants,
  });
  controller.events.onDidChangeChat((change) => {
    if (change.kind === "added" || change.kind === "updated") return seen(change.message, change.kind === "added");
    if (change.kind !== "removed") return;
    const doomed = new Set(change.timestamps);
    const kept = messages.filter((m) => !doomed.has(m.ts));
    messages.splice(0, messages.length, ...kept);
    byTs.clear();
    messages.forEach((m, i) => byTs.set(m.ts, i));
  });

  return {
    server,
    controller,
    workspace,
    storage,
    hub,
    messages,
    asks,
    get partialTextUpdates() {
      return partialTextUpdates;
    },
    async run(task) {
      await controller.newTask(task);
      return (await controller.waitForTask()) ?? "failed";
    },
    async start(task) {
      await controller.newTask(task);
    },
    async finished() {
      return (await controller.waitForTask()) ?? "failed";
    },
    apiHistory: () => structuredClone(controller.currentTask?.messages.apiHistory ?? []),
    // A hang limit, not a speed bound: a loaded CI machine streams a slow scripted answer for seconds.
    waitForAsk(kind, timeoutMs = 30_000) {
      const question = controller.openQuestion;
      const open = question?.kind === kind ? asks.find((a) => a.ts === question.id) : undefined;
      if (open) return Promise.resolve(open);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${kind}" question within ${timeoutMs} ms`)), timeoutMs);
        askWaiters.push({ kind, resolve: (ask) => (clearTimeout(timer), resolve(ask)) });
      });
    },
    async dispose() {
      await controller.dispose();
      await hub?.shutdown();
      await server.close();
      await rm(workspace, { recursive: true, force: true });
      await rm(storage, { recursive: true, force: true });
    },
  };
}

async function startMcpHub(storage: string, workspace: string, mcp: NonNullable<HarnessOptions["mcp"]>): Promise<McpHub> {
  const globalConfigFile = join(storage, "tandem_mcp_settings.json");
  await writeFile(globalConfigFile, JSON.stringify({ mcpServers: mcp.servers }, null, 2));
  const hub = new McpHub({ globalConfigFile, trustWorkspace: () => false, workspaceFolders: () => [workspace], watch: false, connectTimeoutMs: mcp.connectTimeoutMs ?? 10_000 });
  void hub.start();
  return hub;
}

function withEditor(host: NodeHost, { diffView, editor }: Pick<HarnessOptions, "diffView" | "editor">): HostBridge {
  return diffView || editor ? { ...host, ...(diffView ? { diffView } : {}), ...(editor ? { editor } : {}) } : host;
}
