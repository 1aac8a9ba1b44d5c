/**
 * The stdio transport, written against the SDK's public `Transport` interface because the SDK's
 * own cannot make servers die with Tandem: it spawns the server as a plain child, so a crash of
 * the extension host (or a `kill -9` of the CLI) leaves the server and everything it started
 * running. Here each server runs in its own process group under a one-line launcher: a watcher
 * in that group reads an extra pipe (fd 3) from the hub and, when the hub's end closes — on
 * dispose, or because the hub's process died, whatever killed it — it terminates the whole
 * group, then kills it 2 s later. The server itself gets the group's SIGTERM at once on close.
 *
 * It also bounds a message (a 10 MB result must parse, an endless line must not eat memory),
 * keeps the tail of stderr, and counts stdout lines that are not JSON-RPC, so a server that
 * prints banners or garbage says so in its failure instead of hanging silently.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { OutputTail } from "./output-tail";

export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/**
 * $0 is a label, "$@" the server's command. The watcher ignores TERM so that the group's own
 * SIGTERM (sent on close) does not stop it before its SIGKILL; it closes the server's copy of fd 3.
 */
const LAUNCHER = [
  "( trap '' TERM INT HUP; cat <&3 >/dev/null 2>&1; kill -TERM 0 2>/dev/null; sleep 2; kill -KILL 0 2>/dev/null ) </dev/null >/dev/null 2>&1 &",
  'exec 3<&- "$@"',
].join("\n");

const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const KILL_GRACE_MS = 2000;

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private lifeline: Writable | undefined;
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
  /** Called once when the process has ended (or could not start): a sandbox's launch is released then. */
  private onExited: (() => void) | undefined;

  constructor(
    private readonly launch: StdioLaunch,
    options: { readonly maxMessageBytes?: number; readonly onExited?: () => void } = {},
  ) {
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
    const child = windows
      ? spawn(command, [...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"], shell: true, windowsHide: true })
      : spawn("/bin/sh", ["-c", LAUNCHER, "tandem-mcp-server", command, ...args], {
          env,
          cwd,
          detached: true,
          stdio: ["pipe", "pipe", "pipe", "pipe"],
        });
    this.child = child;
    this.lifeline = windows ? undefined : (child.stdio[3] as Writable);
    // The lifeline pipe must never keep the hub's process alive, nor carry errors out of here.
    (this.lifeline as unknown as { unref?: () => void } | undefined)?.unref?.();
    this.lifeline?.on("error", () => {});
    child.stdout?.on("data", (chunk: Buffer) => this.onStdout(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => this.stderr.append(text));
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.on("exit", (code, signal) => {
      // After close() it may still have ended by itself first (an exit code, not our signal).
      const ownExit = signal === null && code !== 0 && code !== 143;
      this.exit = { code, signal, onItsOwn: !this.closeRequested || ownExit };
      this.exited();
      for (const resolve of this.exitWaiters.splice(0)) resolve();
      // Node's "close" waits for every stdio pipe, and the watcher holds fd 3: release it, which
      // also has the watcher end what the server left running in its group.
      this.lifeline?.destroy();
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
    this.killGroup(child, "SIGTERM");
    // Closing our end tells the watcher to finish the job even if this process exits now.
    this.lifeline?.destroy();
    const timer = setTimeout(() => this.killGroup(child, "SIGKILL"), KILL_GRACE_MS);
    await ended;
    clearTimeout(timer);
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
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
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
    this.lifeline?.destroy();
    this.onclose?.();
  }
}
