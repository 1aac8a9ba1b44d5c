/**
 * The command lifecycle behind VS Code's terminals, driven through our own narrow terminal
 * interfaces. The stand-in terminal runs each command as a real process group, writes its output
 * the way a pty with shell integration does (CRLF, OSC 633 markers), turns Ctrl-C into SIGINT for
 * the group and fires the end event with the exit code, so stop, grace and fallback are real.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandExit, RunningCommand } from "../../src/host/bridge";
import { NodeTerminal } from "../../src/host/node/node-terminal";
import {
  FALLBACK_NOTE,
  TerminalCommand,
  type CommandEnvironment,
  type CommandTerminal,
  type ShellExecution,
  type TerminalSlot,
} from "../../src/host/vscode/terminal-command";

type EndListener = Parameters<CommandEnvironment["onDidEndExecution"]>[0];

/** A queue that read() drains as an async iterable, ending when closed. */
class OutputStream implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk !== undefined) yield chunk;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

class ProcessTerminal implements CommandTerminal {
  exitStatus: { code: number | undefined } | undefined;
  readonly sent: string[] = [];
  shown = 0;
  child: ChildProcess | undefined;

  constructor(
    private readonly cwd: string,
    private readonly endListeners: Set<EndListener>,
  ) {}

  show(): void {
    this.shown++;
  }

  sendText(text: string): void {
    this.sent.push(text);
    if (text === "\x03" && this.child?.pid) signalGroup(this.child.pid, "SIGINT");
  }

  executeCommand(commandLine: string): ShellExecution {
    const stream = new OutputStream();
    const child = spawn("/bin/sh", ["-c", commandLine], { cwd: this.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const execution: ShellExecution = { read: () => stream };
    stream.push("\x1b]633;C\x07");
    for (const out of [child.stdout, child.stderr]) out?.on("data", (data: Buffer) => stream.push(`\x1b[0m${data.toString().replace(/\n/g, "\r\n")}`));
    child.on("close", (code, signal) => {
      const exitCode = code ?? (signal === "SIGINT" ? 130 : undefined);
      stream.push(`\x1b]633;D;${exitCode ?? ""}\x07`);
      stream.end();
      for (const listener of this.endListeners) listener({ execution, exitCode });
    });
    return execution;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

let cwd: string;
let endListeners: Set<EndListener>;
let warnings: string[];
let terminal: ProcessTerminal;
let slot: TerminalSlot & { released: number; destroyed: boolean; close(): void };
let integration: "yes" | "no" | "wait-for-stop";
let acquired: number;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "tandem-term-"));
  endListeners = new Set();
  warnings = [];
  terminal = new ProcessTerminal(cwd, endListeners);
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  slot = {
    terminal,
    shellIntegration: terminal,
    closed,
    released: 0,
    destroyed: false,
    release() {
      this.released++;
    },
    destroy() {
      this.destroyed = true;
      if (terminal.child?.pid) signalGroup(terminal.child.pid, "SIGKILL");
      markClosed();
    },
    close() {
      markClosed();
    },
  };
  integration = "yes";
  acquired = 0;
});
afterEach(async () => {
  if (terminal.child?.pid) signalGroup(terminal.child.pid, "SIGKILL");
  await rm(cwd, { recursive: true, force: true });
});

/** `killGraceMs`: how long Ctrl-C has to end a command before its terminal closes. Beside the e2e suite a SIGINT'd `sleep` took over 400 ms to be seen ending. */
function env(killGraceMs = 10_000): CommandEnvironment {
  return {
    async acquire(_cwd, stop) {
      acquired++;
      if (integration === "yes") return slot;
      if (integration === "wait-for-stop") await new Promise((resolve) => stop.addEventListener("abort", resolve, { once: true }));
      return undefined;
    },
    onDidEndExecution(listener) {
      endListeners.add(listener);
      return { dispose: () => endListeners.delete(listener) };
    },
    fallback: new NodeTerminal({ shell: "/bin/sh", killGraceMs: 300 }),
    log: { info: () => {}, warn: (message) => warnings.push(message) },
    killGraceMs,
    drainMs: 100,
  };
}

function run(command: string, options: { timeoutMs?: number; signal?: AbortSignal; cwd?: string; killGraceMs?: number } = {}) {
  const running: RunningCommand = new TerminalCommand(command, { cwd: options.cwd ?? cwd, timeoutMs: options.timeoutMs, signal: options.signal ?? new AbortController().signal }, env(options.killGraceMs));
  let output = "";
  running.onOutput((text) => (output += text));
  return { running, output: () => output };
}

describe("TerminalCommand in a terminal with shell integration", () => {
  it("runs the command in the terminal, cleans its output, reports the exit code and frees the terminal", async () => {
    const { running, output } = run("printf 'one\\ntwo\\n'; echo err >&2; exit 3");
    const exit = await running.completion;
    expect(exit).toEqual<CommandExit>({ exitCode: 3, signal: null, stoppedBy: null });
    expect(output().split("\n").sort()).toEqual(["", "err", "one", "two"]);
    expect(output().includes("\x1b") || output().includes("\r")).toBe(false);
    expect(terminal.shown).toBe(1);
    expect(slot.released).toBe(1);
  });

  it("stops a command at its timeout with Ctrl-C", async () => {
    const { running } = run("sleep 30", { timeoutMs: 150 });
    const exit = await running.completion;
    expect(exit.stoppedBy).toBe("timeout");
    expect(terminal.sent).toEqual(["\x03"]);
    expect(slot.destroyed).toBe(false);
    expect(slot.released).toBe(1);
  });

  it("closes the terminal when Ctrl-C does not end the command", async () => {
    const { running, output } = run("trap '' INT; echo trap-set; sleep 30", { killGraceMs: 400 });
    // Ctrl-C only once the shell has set its trap (a fixed 200 ms wait was too short in CI: exit 130).
    for (let i = 0; i < 200 && !output().includes("trap-set"); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(output()).toContain("trap-set");
    const started = Date.now();
    running.kill();
    running.kill(); // safe twice
    const exit = await running.completion;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(exit).toEqual<CommandExit>({ exitCode: null, signal: null, stoppedBy: "kill" });
    expect(slot.destroyed).toBe(true);
    expect(terminal.sent).toEqual(["\x03"]);
    expect(warnings.join("\n")).toMatch(/Ctrl-C did not end/);
  });

  it("stops when the task's signal aborts", async () => {
    const controller = new AbortController();
    const { running } = run("sleep 30", { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect((await running.completion).stoppedBy).toBe("abort");
  });

  it("ends when the person closes the terminal, and says so", async () => {
    const { running, output } = run("sleep 30");
    setTimeout(() => slot.close(), 100);
    const exit = await running.completion;
    expect(exit.stoppedBy).toBeNull();
    expect(output()).toContain("(the terminal was closed before the command ended)");
  });
});

describe("TerminalCommand before and without a terminal", () => {
  it("does nothing when the signal aborted before it started", async () => {
    const controller = new AbortController();
    controller.abort();
    const { running } = run("echo never", { signal: controller.signal });
    expect(await running.completion).toEqual<CommandExit>({ exitCode: null, signal: null, stoppedBy: "abort" });
    expect(acquired).toBe(0);
  });

  it("rejects when the folder does not exist", async () => {
    const { running } = run("echo x", { cwd: path.join(cwd, "missing") });
    await expect(running.completion).rejects.toThrow(/Could not start the command in .*missing/);
  });

  it("gives up waiting for a terminal when killed meanwhile, without running anything", async () => {
    integration = "wait-for-stop";
    const { running } = run("echo should-not-run");
    setTimeout(() => running.kill(), 50);
    expect(await running.completion).toEqual<CommandExit>({ exitCode: null, signal: null, stoppedBy: "kill" });
    expect(terminal.child).toBeUndefined();
  });

  it("gives up at once when killed before it asked for a terminal (a slow check of the folder)", async () => {
    integration = "wait-for-stop";
    const { running } = run("echo should-not-run");
    running.kill(); // before the folder's check has answered
    expect(await running.completion).toEqual<CommandExit>({ exitCode: null, signal: null, stoppedBy: "kill" });
    expect(acquired).toBe(0);
  });

  it("runs as a child process when there is no shell integration, and says so first", async () => {
    integration = "no";
    const { running, output } = run("echo direct; exit 2");
    expect(await running.completion).toEqual<CommandExit>({ exitCode: 2, signal: null, stoppedBy: null });
    expect(output()).toBe(`${FALLBACK_NOTE}direct\n`);
  });

  it("passes kill() and the timeout on to the child-process runner", async () => {
    integration = "no";
    const killed = run("sleep 30");
    setTimeout(() => killed.running.kill(), 100);
    expect((await killed.running.completion).stoppedBy).toBe("kill");
    const timed = run("sleep 30", { timeoutMs: 100 });
    expect((await timed.running.completion).stoppedBy).toBe("timeout");
  });
});
