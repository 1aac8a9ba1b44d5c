/**
 * The stdio transport, written against the SDK's public `Transport` interface because the SDK's
 * own cannot make servers die with Tandem: it spawns the server as a plain child, so a crash of
 * the extension host (or a `kill -9` of the CLI) leaves the server and everything it started
 * running. Here each server runs in its own process group under a lifeline (util/lifeline.ts):
 * when the hub cuts it on close, or the hub's process dies, whatever killed it, its watcher ends
 * the group and what carries the server's mark. The server itself gets the group's SIGTERM at
 * once on close; what left the group (`setsid`) is also found through /proc while the hub lives
 * (util/process-tree.ts), SIGTERM, then SIGKILL once the server has ended.
 *
 * It also bounds a message (a 10 MB result must parse, an endless line must not eat memory),
 * keeps the tail of stderr, and counts stdout lines that are not JSON-RPC, so a server that
 * prints banners or garbage says so in its failure instead of hanging silently.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { spawnWithLifeline, type LifelineChild } from "../util/lifeline";
import { ProcessTree } from "../util/process-tree";
import { OutputTail } from "./output-tail";

/** Reads a parsed line as a message, throwing on anything else: the SDK's `JSONRPCMessageSchema` (passed in: the SDK loads with the first connection). */
export interface MessageSchema {
  parse(value: unknown): JSONRPCMessage;
}

export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const KILL_GRACE_MS = 2000;
/** How often a server's descendants are looked for while it runs (and again when it is closed): a scan of /proc costs a few ms. */
const COLLECT_EVERY_MS = 5000;

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private lifeline: LifelineChild | undefined;
  /** What the server started outside its process group. */
  private tree: ProcessTree | undefined;
  private readonly stderr = new OutputTail();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private exit: { code: number | null; signal: NodeJS.Signals | null; onItsOwn: boolean } | undefined;
  private closed = false;
  private closeRequested = false;
  private readonly exitWaiters: (() => void)[] = [];
  /** Lines on stdout that were not JSON-RPC, and the first of them, to explain a silent server. */
  garbageLines = 0;
  firstGarbage: string | undefined;

  private readonly maxMessageBytes: number;
  private readonly messageSchema: MessageSchema;
  /** Called once when the process has ended (or could not start): a sandbox's launch is released then. */
  private onExited: (() => void) | undefined;

  constructor(
    private readonly launch: StdioLaunch,
    options: { readonly messageSchema: MessageSchema; readonly maxMessageBytes?: number; readonly onExited?: () => void },
  ) {
    this.messageSchema = options.messageSchema;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.onExited = options.onExited;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  stderrTail(): string {
    return this.stderr.value();
  }

  /** "exited with code 1", "was killed by SIGKILL"; undefined while it runs or when Tandem ended it. */
  exitDescription(): string | undefined {
    if (!this.exit?.onItsOwn) return undefined;
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
  }

  /** Resolves when the process has ended, or after `ms`: a failed write often comes before the exit. */
  whenExited(ms: number): Promise<void> {
    if (this.exit || !this.child) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  start(): Promise<void> {
    if (this.child) throw new Error("ProcessGroupStdioTransport already started");
    const { command, args, env, cwd } = this.launch;
    const windows = process.platform === "win32";
    const launched = windows ? undefined : spawnWithLifeline(command, args, { env, cwd, label: "tandem-mcp-server" });
    const child = launched?.child ?? spawn(command, [...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"], shell: true, windowsHide: true });
    this.child = child;
    this.lifeline = launched;
    if (launched && child.pid !== undefined) this.tree = new ProcessTree(child.pid, { mark: launched.mark, collectEveryMs: COLLECT_EVERY_MS });
    child.stdout?.on("data", (chunk: Buffer) => this.onStdout(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => this.stderr.append(text));
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.on("exit", (code, signal) => {
      // After close() it may still have ended by itself first (an exit code, not our signal).
      const ownExit = signal === null && code !== 0 && code !== 143;
      this.exit = { code, signal, onItsOwn: !this.closeRequested || ownExit };
      if (!this.closeRequested) void this.endTree();
      this.exited();
      for (const resolve of this.exitWaiters.splice(0)) resolve();
      // Node's "close" waits for every stdio pipe, and the watcher holds fd 3: cut it, which
      // also has the watcher end what the server left running in its group.
      this.lifeline?.cut();
    });
    child.on("close", () => this.finish());
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => {
        reject(error);
        this.exited();
        this.finish();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || stdin.destroyed) return Promise.reject(new Error("Not connected: the server's process has ended"));
    return new Promise((resolve, reject) => {
      const ok = stdin.write(JSON.stringify(message) + "\n", (error) => {
        if (error) reject(error);
      });
      if (ok) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    this.closeRequested = true;
    const ended = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
    child.stdin?.end();
    // Before the server is signalled: its children's links to it are how they are found.
    this.tree?.kill("SIGTERM");
    this.killGroup(child, "SIGTERM");
    // Cutting the lifeline tells the watcher to finish the job even if this process exits now.
    this.lifeline?.cut();
    const timer = setTimeout(() => {
      this.tree?.kill("SIGKILL");
      this.killGroup(child, "SIGKILL");
    }, KILL_GRACE_MS);
    await ended;
    clearTimeout(timer);
    await this.endTree();
  }

  /**
   * What the server left outside its group (the watcher ends the group): SIGTERM, and SIGKILL for
   * what still runs after the grace. Resolves when that is done, so a hub's shutdown covers it.
   */
  private async endTree(): Promise<void> {
    const tree = this.tree;
    if (!tree) return;
    this.tree = undefined;
    tree.kill("SIGTERM");
    const deadline = Date.now() + KILL_GRACE_MS;
    while (tree.running() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    tree.kill("SIGKILL");
    tree.dispose();
  }

  private killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      if (process.platform === "win32") child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.pending).toString("utf8");
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
      this.onLine(line);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxMessageBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        this.onerror?.(new Error(`the server sent a message over ${Math.round(this.maxMessageBytes / 1048576)} MB; the connection is closed`));
        void this.close();
      }
    }
  }

  private onLine(raw: string): void {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = this.messageSchema.parse(JSON.parse(line));
    } catch {
      this.garbageLines++;
      this.firstGarbage ??= line.slice(0, 200);
      this.onerror?.(new Error(`stdout line is not JSON-RPC: ${line.slice(0, 200)}`));
      return;
    }
    this.onmessage?.(message);
  }

  private exited(): void {
    const onExited = this.onExited;
    this.onExited = undefined;
    onExited?.();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.lifeline?.cut();
    this.onclose?.();
  }
}
