/**
 * The person's terminals as VS Code's shell integration reports them, through stand-in events:
 * each command's output reaches the activity log clean (no escape sequences, no echoed command
 * line), Tandem's own terminals are left to the terminal host, and a closed terminal goes.
 */
import { describe, expect, it } from "vitest";
import { TerminalActivityLog } from "../../src/host/node/terminal-activity-log";
import { watchPersonTerminals, type ExecutionStart, type WatchedTerminal } from "../../src/host/vscode/person-terminals";

function events() {
  const starts: ((e: ExecutionStart<WatchedTerminal>) => void)[] = [];
  const closes: ((t: WatchedTerminal) => void)[] = [];
  const warnings: string[] = [];
  const tandem: WatchedTerminal = { name: "Tandem" };
  return {
    tandem,
    warnings,
    start: (terminal: WatchedTerminal, commandLine: string, chunks: string[] | (() => AsyncIterable<string>)) => {
      const read = typeof chunks === "function" ? chunks : async function* () { yield* chunks; };
      for (const l of starts) l({ terminal, execution: { commandLine: { value: commandLine }, read } });
    },
    close: (terminal: WatchedTerminal) => closes.forEach((l) => l(terminal)),
    source: {
      onDidStartExecution: (l: (e: ExecutionStart<WatchedTerminal>) => void) => (starts.push(l), { dispose: () => starts.splice(starts.indexOf(l), 1) }),
      onDidCloseTerminal: (l: (t: WatchedTerminal) => void) => (closes.push(l), { dispose: () => closes.splice(closes.indexOf(l), 1) }),
      isTandems: (t: WatchedTerminal) => t === tandem,
      log: { warn: (m: string) => warnings.push(m) },
    },
  };
}

// One turn of the event loop: the output readers (microtasks only) have run by then.
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("watchPersonTerminals", () => {
  it("logs a person's command with its clean output, and forgets the terminal when it closes", async () => {
    const log = new TerminalActivityLog();
    const e = events();
    const watch = watchPersonTerminals(log, e.source);
    const bash = { name: "bash" };
    e.start(bash, "npm test", ["npm test\r\n", "\x1b[32mPASS\x1b[0m a.test.ts\r\n", "\x1b]633;D;0\x07"]);
    await settle();
    expect(log.activity()).toEqual([{ name: "bash", busy: false, lastCommand: "npm test", recentOutput: "PASS a.test.ts\n", outputLength: 15 }]);
    e.close(bash);
    expect(log.activity()).toEqual([]);
    watch.dispose();
    e.start(bash, "ls", ["x\n"]);
    await settle();
    expect(log.activity()).toEqual([]);
  });

  it("leaves Tandem's own terminals to the terminal host", async () => {
    const log = new TerminalActivityLog();
    const e = events();
    watchPersonTerminals(log, e.source);
    e.start(e.tandem, "echo hi", ["hi\n"]);
    await settle();
    expect(log.activity()).toEqual([]);
  });

  it("a command still running is busy; a failing read is reported and ends it", async () => {
    const log = new TerminalActivityLog();
    const e = events();
    watchPersonTerminals(log, e.source);
    let fail: (error: Error) => void = () => {};
    const failing = new Promise<never>((_, reject) => (fail = reject));
    e.start({ name: "zsh" }, "npm run dev", async function* () {
      yield "listening\n";
      await failing;
    });
    await settle();
    expect(log.activity()[0]).toMatchObject({ name: "zsh", busy: true, recentOutput: "listening\n" });
    fail(new Error("terminal disposed"));
    await settle();
    expect(log.activity()[0]).toMatchObject({ busy: false });
    expect(e.warnings).toEqual(['Stopped reading the output of "zsh": terminal disposed']);
  });
});
