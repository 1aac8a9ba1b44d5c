/**
 * One configured server's life inside the hub: its settings, its visible state and the connection
 * attempt of the moment. The hub decides when a server starts or stops (its files, the workspace's
 * trust); this decides how. Every start and stop bumps a generation, so a late result of an old
 * attempt never overwrites the state of a newer one.
 */
import { ServerConnection, type ConnectionHost } from "./server-connection";
import { McpCallError, type McpConfigSource, type McpServerConfig, type McpServerSnapshot, type McpServerState } from "./types";

export interface ServerEntryHost {
  readonly connection: ConnectionHost;
  /** The state or the lists changed: the hub tells its listeners. */
  readonly changed: () => void;
}

export interface ServerOrigin {
  readonly name: string;
  readonly source: McpConfigSource;
  /** The file it is configured in (where edits are written back). */
  readonly file: string;
}

export class ServerEntry {
  readonly name: string;
  readonly source: McpConfigSource;
  readonly file: string;
  private currentState: McpServerState = "connecting";
  private error?: string;
  private stderrTail?: string;
  private connection?: ServerConnection;
  private attempt?: Promise<void>;
  private generation = 0;

  constructor(
    origin: ServerOrigin,
    public config: McpServerConfig,
    private readonly host: ServerEntryHost,
  ) {
    this.name = origin.name;
    this.source = origin.source;
    this.file = origin.file;
  }

  get state(): McpServerState {
    return this.currentState;
  }

  /** Settles when the current connection attempt has ended either way; none after a stop. */
  get connecting(): Promise<void> | undefined {
    return this.attempt;
  }

  /**
   * Starts connecting (or settles a state that needs no connection) at once, so the state never
   * shows a server that is being replaced; the new process starts once `previous` has ended.
   */
  start(trusted: boolean, previous: Promise<void> = Promise.resolve()): void {
    const generation = ++this.generation;
    delete this.error;
    delete this.stderrTail;
    if (!trusted) return this.settle("untrusted");
    if (this.config.disabled) return this.settle("disabled");
    const connection = new ServerConnection(this.name, this.config, this.host.connection);
    this.connection = connection;
    connection.onListsChanged = () => this.host.changed();
    connection.onLost = (reason) => {
      if (this.generation === generation) this.settle("failed", reason, connection.stderrTail());
    };
    this.settle("connecting");
    this.attempt = previous.then(() => (this.generation === generation ? connection.connect() : undefined)).then(
      () => {
        if (this.generation === generation) this.settle("connected");
      },
      (error: unknown) => {
        if (this.generation !== generation) return;
        this.settle("failed", error instanceof Error ? error.message : String(error), connection.stderrTail());
        void connection.close();
      },
    );
  }

  /** Ends the attempt or connection; resolves when its process is gone. */
  async stop(): Promise<void> {
    this.generation++;
    const connection = this.connection;
    delete this.connection;
    delete this.attempt;
    await connection?.close();
  }

  /** The live connection, for a call; throws McpCallError when the server is not connected. */
  live(): ServerConnection {
    if (this.currentState !== "connected" || !this.connection) {
      const why = this.error ? `: ${this.error}` : "";
      throw new McpCallError("not_connected", `server "${this.name}" is ${this.currentState}${why}`);
    }
    return this.connection;
  }

  /** How long a call may take, from the server's settings. */
  timeoutMs(): number {
    return this.config.timeoutSeconds * 1000;
  }

  rootsChanged(): void {
    void this.connection?.rootsChanged();
  }

  snapshot(): McpServerSnapshot {
    const c = this.connection;
    const live = this.currentState === "connected" && c;
    const allowed = new Set(this.config.autoApprove);
    return {
      name: this.name,
      source: this.source,
      configFile: this.file,
      state: this.currentState,
      type: this.config.type,
      ...(this.error ? { error: this.error } : {}),
      ...(this.stderrTail ? { stderrTail: this.stderrTail } : {}),
      timeoutSeconds: this.config.timeoutSeconds,
      ...(live && c.serverInfo ? { serverInfo: c.serverInfo } : {}),
      ...(live && c.instructions ? { instructions: c.instructions } : {}),
      tools: live ? c.tools.map((t) => ({ ...t, autoApprove: allowed.has(t.name) })) : [],
      resources: live ? c.resources : [],
      resourceTemplates: live ? c.resourceTemplates : [],
      prompts: live ? c.prompts : [],
    };
  }

  private settle(state: McpServerState, error?: string, stderrTail?: string): void {
    this.currentState = state;
    if (error !== undefined) this.error = error;
    if (stderrTail) this.stderrTail = stderrTail;
    this.host.changed();
  }
}
