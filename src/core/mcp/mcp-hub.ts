/**
 * The McpHub: every configured MCP server, its visible state, and the calls the tools make.
 * The Controller owns one (it outlives tasks); the panel listens to `onDidChange`, the loop
 * waits with `waitForConnections` and describes `servers()` in the system prompt, the tools
 * call `callTool` / `readResource`. Servers start in parallel and nothing here waits for one to
 * connect unless asked to. The hub is the one owner of each server's state; the config files are
 * the one owner of its settings (the hub's edits go through the file, then are applied from it).
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { DisposableLike } from "../util/disposable";
import { ArgumentValidator } from "./argument-validator";
import { editServerInFile, type McpServerEdit } from "./config-edits";
import { createDebouncedWatcher, type WatchFile } from "./config-watcher";
import { launchKey, loadMcpConfigFile, type McpConfigResult } from "./mcp-config";
import type { McpOAuthHost } from "./oauth-provider";
import { describeTool, toolNames } from "./prompt-section";
import type { ConnectionHost } from "./server-connection";
import { ServerEntry, type ServerEntryHost } from "./server-entry";
import type { McpServerSandbox } from "./server-sandbox";
import { DEFAULT_RESULT_LIMITS, normaliseResourceResult, normaliseToolResult, type ResultLimits } from "./tool-result";
import {
  McpCallError,
  type McpConfigProblem,
  type McpConfigSource,
  type McpProgress,
  type McpResourceResult,
  type McpServerConfig,
  type McpServerSnapshot,
  type McpToolResult,
} from "./types";

/** What the hub asks before it starts servers a repository ships. */
export interface WorkspaceTrustRequest {
  readonly file: string;
  /** The servers and how each would be started (command line or URL), to show the person. */
  readonly servers: readonly { readonly name: string; readonly launch: string }[];
  /** Changes whenever a launch line changes: trust given to one fingerprint does not carry over. */
  readonly fingerprint: string;
}

export interface McpHubOptions {
  /** The person's file (`tandem_mcp_settings.json` in Tandem's storage, or the CLI's `--mcp-config`). */
  readonly globalConfigFile: string;
  /** The workspace's file, usually `<folder>/.tandem/mcp.json`; none: no workspace servers. */
  readonly workspaceConfigFile?: string;
  /** Whether the workspace's servers may start; asked again on `refreshWorkspaceTrust`. */
  readonly trustWorkspace: (request: WorkspaceTrustRequest) => boolean | Promise<boolean>;
  /** The workspace folders, offered to servers as roots. */
  readonly workspaceFolders: () => readonly string[];
  /** A server asks the person for input (a form in the panel); default: decline. */
  readonly elicit?: (server: string, request: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
  /** OAuth for remote servers; without it a server that answers 401 fails with "needs authorization". */
  readonly oauth?: McpOAuthHost;
  /** Confines stdio servers configured with `"sandbox": true`; without it (or when it cannot) they fail, never run unconfined. */
  readonly sandbox?: McpServerSandbox;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** How long a server may take to answer initialize and its first lists. */
  readonly connectTimeoutMs?: number;
  /** How files are watched; false: not at all (the host reloads with `reload`). */
  readonly watch?: WatchFile | false;
  readonly resultLimits?: ResultLimits;
}

export interface McpHubState {
  readonly servers: readonly McpServerSnapshot[];
  /** Errors (a rejected file) and warnings of both files, each naming file, line and column. */
  readonly problems: readonly McpConfigProblem[];
}

export interface CallToolOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: McpProgress) => void;
}

export class McpHub implements DisposableLike {
  private readonly entries = new Map<string, ServerEntry>();
  private readonly problems = new Map<McpConfigSource, readonly McpConfigProblem[]>();
  private readonly listeners = new Set<(state: McpHubState) => void>();
  private readonly validator = new ArgumentValidator();
  private readonly watchers: DisposableLike[] = [];
  private readonly reloads = new Map<McpConfigSource, Promise<void>>();
  private readonly entryHost: ServerEntryHost;
  private workspaceTrusted = false;
  /** The workspace servers' fingerprint the person trusted; a changed launch line asks again. */
  private trustedFingerprint: string | undefined;
  private started = false;
  /** Set by start(): until both files are read there is nothing to wait for, which is not "no servers". */
  private starting: Promise<void> | undefined;
  private disposed = false;

  constructor(private readonly options: McpHubOptions) {
    const connection: ConnectionHost = {
      clientInfo: options.clientInfo ?? { name: "tandem", version: "0.1.0" },
      roots: () => options.workspaceFolders(),
      elicit: options.elicit,
      oauth: options.oauth,
      sandbox: options.sandbox,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    };
    this.entryHost = { connection, changed: () => this.emit() };
  }

  /**
   * Reads both files and starts their servers; resolves once the files are applied (servers
   * are then connecting, not connected). It waits on `trustWorkspace`, so a host whose trust
   * question shows a dialog should not await it.
   */
  start(): Promise<void> {
    this.starting ??= this.startOnce();
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    const watch = this.options.watch === undefined ? createDebouncedWatcher() : this.options.watch;
    for (const source of this.sources()) {
      if (watch) this.watchers.push(watch(this.fileOf(source), () => void this.reload(source)));
    }
    // The global file first: its servers win a name both files use.
    await this.reload("global");
    if (this.options.workspaceConfigFile) await this.reload("workspace");
    this.started = true;
  }

  servers(): readonly McpServerSnapshot[] {
    return [...this.entries.values()].map((e) => e.snapshot());
  }

  state(): McpHubState {
    return { servers: this.servers(), problems: [...this.problems.values()].flat() };
  }

  onDidChange(listener: (state: McpHubState) => void): DisposableLike {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Waits for servers still connecting, at most `timeoutMs`; returns those still connecting then. */
  async waitForConnections(timeoutMs = 10_000): Promise<{ readonly stillConnecting: readonly string[] }> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    // A first request can come before start() has read the files (it is not awaited): wait for that too, within the same bound.
    const connections = (this.starting ?? Promise.resolve()).catch(() => {}).then(() => {
      const pending = [...this.entries.values()].flatMap((e) => (e.state === "connecting" && e.connecting ? [e.connecting] : []));
      return Promise.all(pending);
    });
    await Promise.race([connections, deadline]);
    clearTimeout(timer);
    return { stillConnecting: [...this.entries.values()].filter((e) => e.state === "connecting").map((e) => e.name) };
  }

  async callTool(server: string, tool: string, args: unknown, options: CallToolOptions = {}): Promise<McpToolResult> {
    const entry = this.entry(server);
    const connection = entry.live();
    const listed = connection.tools.find((t) => t.name === tool);
    if (!listed) throw new McpCallError("unknown_tool", `server "${server}" has no tool "${tool}" (its tools: ${toolNames(connection.tools)})`);
    const check = await this.validator.check(listed.inputSchema, args);
    // With the tool's own line: past the prompt's budget a tool is listed by name only (prompt-section.ts).
    if (!check.ok) throw new McpCallError("invalid_arguments", `invalid arguments for ${server}/${tool}: ${check.problem}. The tool: ${describeTool(listed).slice(2)}`);
    const raw = await connection.callTool(tool, args as Record<string, unknown>, { ...options, timeoutMs: entry.timeoutMs() });
    return normaliseToolResult(raw, this.options.resultLimits ?? DEFAULT_RESULT_LIMITS);
  }

  async readResource(server: string, uri: string, options: { signal?: AbortSignal } = {}): Promise<McpResourceResult> {
    const entry = this.entry(server);
    const raw = await entry.live().readResource(uri, { ...options, timeoutMs: entry.timeoutMs() });
    return normaliseResourceResult(raw, this.options.resultLimits ?? DEFAULT_RESULT_LIMITS);
  }

  /** A server's prompt (the `/mcp:server:prompt` command), its messages' text joined; throws McpCallError. */
  async getPrompt(server: string, prompt: string, args: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<string> {
    const entry = this.entry(server);
    const raw = await entry.live().getPrompt(prompt, args, { ...options, timeoutMs: entry.timeoutMs() });
    return promptText(raw);
  }

  /** "Always allow" for one tool, written to the `autoApprove` list in the server's own file. */
  setToolAutoApprove(server: string, tool: string, allow: boolean): Promise<void> {
    return this.edit(server, { kind: "autoApprove", tool, allow });
  }

  setServerDisabled(server: string, disabled: boolean): Promise<void> {
    return this.edit(server, { kind: "disabled", disabled });
  }

  setServerTimeout(server: string, seconds: number): Promise<void> {
    return this.edit(server, { kind: "timeout", seconds });
  }

  deleteServer(server: string): Promise<void> {
    return this.edit(server, { kind: "delete" });
  }

  async restartServer(server: string): Promise<void> {
    const entry = this.entries.get(server);
    if (!entry) throw new McpCallError("unknown_server", `no MCP server named "${server}"`);
    this.begin(entry, undefined, entry.stop());
    await entry.connecting;
  }

  /** Asks `trustWorkspace` again (after the person trusted the workspace) and starts what it allows. */
  refreshWorkspaceTrust(): Promise<void> {
    return this.reload("workspace", true);
  }

  /** The workspace folders changed: servers that read roots ask again. */
  rootsChanged(): void {
    for (const e of this.entries.values()) e.rootsChanged();
  }

  /** Reads a file again and applies it (the watcher does this on change). */
  reload(source: McpConfigSource, askTrust = false): Promise<void> {
    const next = (this.reloads.get(source) ?? Promise.resolve()).then(() => this.apply(source, askTrust));
    this.reloads.set(source, next.catch(() => {}));
    return next;
  }

  /** Stops every server; resolves when their processes are gone. */
  async shutdown(): Promise<void> {
    this.disposed = true;
    for (const w of this.watchers.splice(0)) void w.dispose();
    await Promise.all([...this.entries.values()].map((e) => e.stop()));
    this.listeners.clear();
  }

  dispose(): void {
    // stop() signals every process group at once; the await only waits for them to be gone.
    void this.shutdown();
  }

  private sources(): McpConfigSource[] {
    return this.options.workspaceConfigFile ? ["global", "workspace"] : ["global"];
  }

  private fileOf(source: McpConfigSource): string {
    return (source === "global" ? this.options.globalConfigFile : this.options.workspaceConfigFile) as string;
  }

  private async apply(source: McpConfigSource, askTrust: boolean): Promise<void> {
    if (this.disposed) return;
    const file = this.fileOf(source);
    const result: McpConfigResult = await loadMcpConfigFile(file);
    if (!result.ok) {
      // A broken file changes nothing that runs: the person sees why, and fixes it.
      this.problems.set(source, result.problems);
      this.emit();
      return;
    }
    const problems = [...result.warnings];
    const wanted = new Map<string, McpServerConfig>();
    for (const [name, config] of result.servers) {
      const other = this.entries.get(name);
      if (source === "workspace" && other?.source === "global") {
        problems.push({ file, line: 1, column: 1, message: `${path.basename(file)}: server "${name}" is also in ${path.basename(other.file)}; that one is used` });
      } else wanted.set(name, config);
    }
    this.problems.set(source, problems);
    if (source === "workspace" && wanted.size > 0) {
      const request = trustRequest(file, wanted);
      if (askTrust || request.fingerprint !== this.trustedFingerprint) {
        this.workspaceTrusted = await this.askTrust(request);
        this.trustedFingerprint = this.workspaceTrusted ? request.fingerprint : undefined;
      }
    }
    for (const entry of [...this.entries.values()]) {
      if (entry.source === source && !wanted.has(entry.name)) {
        this.entries.delete(entry.name);
        await entry.stop();
      }
    }
    for (const [name, config] of wanted) this.applyServer(source, file, name, config);
    this.emit();
    // A global change can free or take a name the workspace file uses: let it apply again.
    if (source === "global" && this.started && this.options.workspaceConfigFile) void this.reload("workspace");
  }

  private applyServer(source: McpConfigSource, file: string, name: string, config: McpServerConfig): void {
    let entry = this.entries.get(name);
    const trusted = source === "global" || this.workspaceTrusted;
    if (entry && entry.source !== source) {
      // Only the global file reaches here (a workspace name the global file uses is skipped).
      void entry.stop();
      this.entries.delete(name);
      entry = undefined;
    }
    if (!entry) {
      const created = new ServerEntry({ name, source, file }, config, this.entryHost);
      this.entries.set(name, created);
      this.begin(created, trusted);
      return;
    }
    const relaunch = launchKey(entry.config) !== launchKey(config) || entry.config.disabled !== config.disabled;
    const trustChanged = (entry.state === "untrusted") === trusted;
    entry.config = config;
    const current = entry;
    if (relaunch || trustChanged) this.begin(current, trusted, current.stop());
  }

  /** Starts a server unless the hub is gone; trusted by default as its file is. */
  private begin(entry: ServerEntry, trusted = entry.source === "global" || this.workspaceTrusted, previous: Promise<void> = Promise.resolve()): void {
    if (!this.disposed) entry.start(trusted, previous);
  }

  private entry(server: string): ServerEntry {
    const entry = this.entries.get(server);
    if (!entry) throw new McpCallError("unknown_server", `no MCP server named "${server}" (servers: ${[...this.entries.keys()].join(", ") || "none"})`);
    return entry;
  }

  private async edit(server: string, change: McpServerEdit): Promise<void> {
    const entry = this.entries.get(server);
    if (!entry) throw new McpCallError("unknown_server", `no MCP server named "${server}"`);
    await editServerInFile(entry.file, server, change);
    await this.reload(entry.source);
  }

  private async askTrust(request: WorkspaceTrustRequest): Promise<boolean> {
    try {
      return (await this.options.trustWorkspace(request)) === true;
    } catch {
      return false;
    }
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const state = this.state();
    for (const listener of this.listeners) {
      try {
        listener(state);
      } catch {
        // A listener's bug must not stop the others nor the hub.
      }
    }
  }
}

function trustRequest(file: string, servers: ReadonlyMap<string, McpServerConfig>): WorkspaceTrustRequest {
  const list = [...servers].map(([name, c]) => ({
    name,
    launch: c.type === "stdio" ? [c.command, ...c.args].join(" ") : `${c.type} ${c.url}`,
  }));
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([...servers].map(([name, c]) => [name, launchKey(c)])))
    .digest("hex");
  return { file, servers: list, fingerprint };
}

/** The text of a prompt's messages (images and embedded resources are named, not sent). */
function promptText(raw: Record<string, unknown>): string {
  const messages = Array.isArray(raw.messages) ? (raw.messages as { content?: { type?: string; text?: unknown; resource?: { text?: unknown; uri?: unknown } } }[]) : [];
  return messages
    .map(({ content }) => {
      if (content?.type === "text" && typeof content.text === "string") return content.text;
      if (content?.type === "resource" && typeof content.resource?.text === "string") return content.resource.text;
      return `[${String(content?.type ?? "unknown")} content not included]`;
    })
    .join("\n\n");
}
