/**
 * One live connection to one server: its transport, the SDK `Client` over it, and the lists the
 * server offers (tools, resources, templates, prompts), refreshed when it says they changed.
 * It knows nothing of states or files; the hub owns those and reads this. Every wait here is
 * bounded: initialize by the connect timeout, a call by the server's timeout. The SDK is loaded
 * by connect() (load-sdk.ts): nothing before it needs the SDK.
 */
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { loadMcpSdk, type McpSdk } from "./load-sdk";
import { McpOAuthProvider, type McpOAuthHost } from "./oauth-provider";
import { deliverResponsesAfterNotifications } from "./response-order";
import { sandboxRefusal, type ConfinedLaunch, type McpServerSandbox } from "./server-sandbox";
import { ProcessGroupStdioTransport, type StdioLaunch } from "./stdio-transport";
import { McpCallError, type McpProgress, type McpPromptInfo, type McpResourceInfo, type McpResourceTemplateInfo, type McpServerConfig } from "./types";

/** What the hub's host lends every connection. */
export interface ConnectionHost {
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** Absolute paths of the workspace folders, offered as `roots`. */
  roots(): readonly string[] | Promise<readonly string[]>;
  /** A server asks the person for input; undefined means Tandem declines every request. */
  readonly elicit?: (server: string, request: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
  readonly oauth?: McpOAuthHost;
  /** Runs the stdio servers configured with `"sandbox": true`; without it they fail. */
  readonly sandbox?: McpServerSandbox;
  readonly connectTimeoutMs: number;
}

export interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: McpProgress) => void;
  readonly timeoutMs: number;
}

export class ServerConnection {
  tools: readonly ListedTool[] = [];
  resources: readonly McpResourceInfo[] = [];
  resourceTemplates: readonly McpResourceTemplateInfo[] = [];
  prompts: readonly McpPromptInfo[] = [];
  /** Called when the server announced a changed list and it was read again. */
  onListsChanged: () => void = () => {};
  /** Called once if the connection ends without `close()`: the server exited or the network went. */
  onLost: (reason: string) => void = () => {};

  private client: Client | undefined;
  private transport: Transport | undefined;
  private oauth: McpOAuthProvider | undefined;
  /** A `"sandbox": true` server's launch, once the sandbox has made it. */
  private confined: ConfinedLaunch | undefined;
  private closing = false;
  private loadedSdk: McpSdk | undefined;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly host: ConnectionHost,
  ) {}

  get serverInfo(): { name: string; version: string } | undefined {
    const info = this.client?.getServerVersion();
    return info ? { name: info.name, version: info.version } : undefined;
  }

  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  /** The tail of a stdio server's stderr, for failure reports. */
  stderrTail(): string | undefined {
    return this.transport instanceof ProcessGroupStdioTransport ? this.transport.stderrTail() || undefined : undefined;
  }

  /** Connects and reads the lists; rejects with a sentence that explains the failure. */
  async connect(): Promise<void> {
    this.loadedSdk = await loadMcpSdk();
    if (this.closing) throw new Error(`server "${this.name}" was stopped while connecting`);
    const { StreamableHTTPError } = this.loadedSdk;
    if (this.config.type === "stdio" && this.config.sandbox) this.confined = await this.confine();
    const types = this.config.typeInferred ? (["streamableHttp", "sse"] as const) : [this.config.type];
    for (const [i, type] of types.entries()) {
      try {
        await this.connectWith(type);
        break;
      } catch (error) {
        const fallBack = i < types.length - 1 && error instanceof StreamableHTTPError && (error.code ?? 0) >= 400 && (error.code ?? 0) < 500;
        if (fallBack) continue;
        if (this.transport instanceof ProcessGroupStdioTransport) await this.transport.whenExited(500);
        throw new Error(this.explain(error, "while connecting"));
      }
    }
    try {
      await this.withAuthRetry(() => this.readLists());
    } catch (error) {
      throw new Error(this.explain(error, "while listing its tools"));
    }
    this.watchLists();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client?.close().catch(() => {});
    await this.transport?.close().catch(() => {});
    // The process has ended (or never started): what the sandbox made for it can go.
    this.confined?.release();
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>> {
    return this.request(options.signal, async (client) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        // Progress shows the tool is alive: it restarts the clock, up to five times the limit.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: options.timeoutMs * 5,
        onprogress: options.onProgress
          ? (p) => options.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) })
          : undefined,
      });
      return result as Record<string, unknown>;
    });
  }

  async readResource(uri: string, options: { signal?: AbortSignal; timeoutMs: number }): Promise<Record<string, unknown>> {
    return this.request(options.signal, (client) => client.readResource({ uri }, { signal: options.signal, timeout: options.timeoutMs }));
  }

  async getPrompt(name: string, args: Record<string, string>, options: { signal?: AbortSignal; timeoutMs: number }): Promise<Record<string, unknown>> {
    return this.request(options.signal, (client) => client.getPrompt({ name, arguments: args }, { signal: options.signal, timeout: options.timeoutMs }));
  }

  /** Tells the server the workspace folders changed (it asks for them again). */
  async rootsChanged(): Promise<void> {
    await this.client?.sendRootsListChanged().catch(() => {});
  }

  /** The SDK, once connect() has loaded it. */
  private get sdk(): McpSdk {
    if (!this.loadedSdk) throw new Error(`server "${this.name}": the MCP SDK is needed before connect()`);
    return this.loadedSdk;
  }

  private async connectWith(type: McpServerConfig["type"]): Promise<void> {
    const { UnauthorizedError } = this.sdk;
    for (let attempt = 0; ; attempt++) {
      const transport = deliverResponsesAfterNotifications(this.createTransport(type));
      const client = this.createClient();
      this.transport = transport;
      this.client = client;
      try {
        await client.connect(transport, { timeout: this.host.connectTimeoutMs });
        client.onclose = () => {
          if (!this.closing) this.onLost(this.lostReason());
        };
        return;
      } catch (error) {
        await transport.close().catch(() => {});
        // Each round may ask for more (a step-up to a wider scope); three is past any honest server.
        if (!(error instanceof UnauthorizedError) || attempt >= 2 || !(await this.finishAuth(transport))) throw error;
      }
    }
  }

  private createTransport(type: McpServerConfig["type"]): Transport {
    const c = this.config;
    const { JSONRPCMessageSchema, SSEClientTransport, StreamableHTTPClientTransport } = this.sdk;
    if (type === "stdio") {
      const confined = this.confined;
      return new ProcessGroupStdioTransport(confined?.launch ?? this.stdioLaunch(), { messageSchema: JSONRPCMessageSchema, ...(confined ? { onExited: () => confined.release() } : {}) });
    }
    const url = new URL(c.url ?? "");
    this.oauth ??= this.host.oauth ? new McpOAuthProvider(this.host.oauth, this.name, url.href) : undefined;
    const options = { requestInit: { headers: { ...c.headers } }, ...(this.oauth ? { authProvider: this.oauth } : {}) };
    return type === "sse" ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
  }

  private stdioLaunch(): StdioLaunch {
    const c = this.config;
    return { command: c.command ?? "", args: c.args, env: { ...this.sdk.getDefaultEnvironment(), ...c.env }, ...(c.cwd ? { cwd: c.cwd } : {}) };
  }

  /** The launch inside the sandbox; rejects with the sentence the panel shows when there is none. */
  private async confine(): Promise<ConfinedLaunch> {
    const sandbox = this.host.sandbox;
    if (!sandbox) throw new Error(sandboxRefusal("this host offers no command sandbox"));
    let confined: ConfinedLaunch;
    try {
      confined = await sandbox.confine(this.stdioLaunch(), await this.host.roots());
    } catch (error) {
      throw new Error(sandboxRefusal(errorMessage(error)));
    }
    if (this.closing) {
      confined.release();
      throw new Error(`server "${this.name}" was stopped while the sandbox was being prepared`);
    }
    return confined;
  }

  private createClient(): Client {
    const { Client, ElicitRequestSchema, ListRootsRequestSchema } = this.sdk;
    const client = new Client(this.host.clientInfo, {
      capabilities: { roots: { listChanged: true }, elicitation: { form: { applyDefaults: true } } },
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: (await this.host.roots()).map((folder) => ({ uri: pathToFileURL(folder).href, name: folder.split(/[\\/]/).pop() || folder })),
    }));
    const elicit = this.host.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) =>
      elicit ? elicit(this.name, request.params, extra.signal) : { action: "decline" as const },
    );
    return client;
  }

  /** After the person signed in (the SDK called `authorize` through the provider), trade the code for tokens. */
  private async finishAuth(transport: Transport): Promise<boolean> {
    const code = this.oauth?.takeAuthorizationCode();
    const { SSEClientTransport, StreamableHTTPClientTransport } = this.sdk;
    if (!code || !(transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport)) return false;
    await transport.finishAuth(code);
    return true;
  }

  private async request<T>(signal: AbortSignal | undefined, run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.client;
    if (!client) throw new McpCallError("not_connected", `server "${this.name}" is not connected`);
    try {
      return await this.withAuthRetry(() => run(client));
    } catch (error) {
      throw this.callError(error, signal);
    }
  }

  /** A server asking for more scope mid-session (step-up): the person signs in again, then it retries. */
  private async withAuthRetry<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const transport = this.transport;
        if (!(error instanceof this.sdk.UnauthorizedError) || attempt >= 2 || !transport || !(await this.finishAuth(transport).catch(() => false))) throw error;
      }
    }
  }

  private callError(error: unknown, signal: AbortSignal | undefined): McpCallError {
    if (error instanceof McpCallError) return error;
    if (signal?.aborted) return new McpCallError("cancelled", "the call was cancelled (the server was sent notifications/cancelled)");
    const { ErrorCode, McpError, UnauthorizedError } = this.sdk;
    if (error instanceof UnauthorizedError) return new McpCallError("unauthorized", `server "${this.name}" needs authorization: ${error.message}`);
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) return new McpCallError("timeout", `server "${this.name}" did not answer in time (${error.message})`);
      if (error.code === ErrorCode.ConnectionClosed) return new McpCallError("connection_lost", this.lostReason());
      return new McpCallError("server_error", `server "${this.name}" answered with an error: ${error.message}`);
    }
    if (!this.client?.transport) return new McpCallError("connection_lost", this.lostReason());
    return new McpCallError("server_error", this.explain(error, "during the call"));
  }

  private lostReason(): string {
    const t = this.transport;
    const how = t instanceof ProcessGroupStdioTransport ? (t.exitDescription() ?? "closed its connection") : "closed the connection";
    return `server "${this.name}" ${how}`;
  }

  /** One sentence for the panel: what failed, and what the server showed of why. */
  private explain(error: unknown, when: string): string {
    const t = this.transport;
    const { ErrorCode, McpError } = this.sdk;
    const text = errorMessage(error);
    const parts: string[] = [];
    if (t instanceof ProcessGroupStdioTransport && t.exitDescription()) {
      parts.push(`the server ${t.exitDescription()} ${when}`);
    } else if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      parts.push(`no answer to initialize within ${Math.round(this.host.connectTimeoutMs / 1000)} s`);
    } else {
      parts.push(text);
    }
    if (t instanceof ProcessGroupStdioTransport && t.garbageLines > 0) {
      parts.push(`its stdout had ${t.garbageLines} line(s) that are not JSON-RPC, the first: ${JSON.stringify(t.firstGarbage)} (a stdio server must print only protocol messages; logs go to stderr)`);
    }
    return parts.join("; ");
  }

  private async readLists(): Promise<void> {
    const client = this.client as Client;
    const caps = client.getServerCapabilities() ?? {};
    const opts = { timeout: this.host.connectTimeoutMs };
    const [tools, resources, templates, prompts] = await Promise.all([
      caps.tools ? pages((cursor) => client.listTools({ cursor }, opts), (r) => r.tools) : [],
      caps.resources ? pages((cursor) => client.listResources({ cursor }, opts), (r) => r.resources) : [],
      caps.resources ? pages((cursor) => client.listResourceTemplates({ cursor }, opts), (r) => r.resourceTemplates).catch(() => []) : [],
      caps.prompts ? pages((cursor) => client.listPrompts({ cursor }, opts), (r) => r.prompts) : [],
    ]);
    this.tools = tools.map((t) => ({
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema as Record<string, unknown>,
      ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
    }));
    this.resources = resources.map((r) => pick({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType }));
    this.resourceTemplates = templates.map((r) => pick({ uriTemplate: r.uriTemplate, name: r.name, description: r.description, mimeType: r.mimeType }));
    this.prompts = prompts.map((p) => ({
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      arguments: (p.arguments ?? []).map((a) => pick({ name: a.name, description: a.description, required: a.required })),
    }));
  }

  private watchLists(): void {
    const client = this.client as Client;
    const { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } = this.sdk;
    const refresh = () => {
      this.readLists().then(
        () => this.onListsChanged(),
        () => {},
      );
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, refresh);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, refresh);
    client.setNotificationHandler(PromptListChangedNotificationSchema, refresh);
  }
}

/** Follows `nextCursor` to the end (at most 100 pages, against a server that loops). */
async function pages<R extends { nextCursor?: string }, T>(fetchPage: (cursor: string | undefined) => Promise<R>, items: (r: R) => T[]): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await fetchPage(cursor);
    all.push(...items(result));
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return all;
}

/** Drops undefined fields, so snapshots compare and print cleanly. */
function pick<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && !error.message.includes(cause.message) ? `${error.message} (${cause.message})` : error.message;
}
