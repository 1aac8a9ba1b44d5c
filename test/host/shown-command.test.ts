/** A wrapped command (the sandbox's launcher) shows in its terminal as the command typed, once, then its output; the wrapper never shows. */
import { describe, expect, it } from "vitest";
import type { CommandExit, RunCommandOptions, RunningCommand, TerminalHost } from "../../src/host/bridge";
import { LineEnds, ShownCommand, commandLine, isInterrupt, type CommandScreen } from "../../src/host/vscode/shown-command";

/** A runner whose one command ends when the test says. */
function fakeRunner() {
  const runs: { line: string; options: RunCommandOptions }[] = [];
  let emit: (text: string) => void = () => {};
  let finish: (exit: CommandExit) => void = () => {};
  let killed = 0;
  const runner: TerminalHost = {
    shell: { path: "/bin/sh", interactive: false },
    run(line, options): RunningCommand {
      runs.push({ line, options });
      const listeners: ((text: string) => void)[] = [];
      emit = (text) => listeners.forEach((listener) => listener(text));
      return {
        onOutput: (listener) => void listeners.push(listener),
        completion: new Promise((resolve) => (finish = resolve)),
        kill: () => {
          killed++;
          finish({ exitCode: null, signal: "SIGTERM", stoppedBy: "kill" });
        },
      };
    },
  };
  return { runner, runs, emit: (text: string) => emit(text), finish: (exit: CommandExit) => finish(exit), killed: () => killed };
}

function fakeScreen() {
  let written = "";
  let revealed = 0;
  const stops = new Set<() => void>();
  const screen: CommandScreen = {
    write: (text) => (written += text),
    reveal: () => revealed++,
    onStop: (listener) => {
      stops.add(listener);
      return { dispose: () => stops.delete(listener) };
    },
  };
  return { screen, written: () => written, revealed: () => revealed, stop: () => [...stops].forEach((stop) => stop()), listening: () => stops.size };
}

const LAUNCHER = "/bin/sh '/tmp/tandem-sandbox-1-x/launchers/sandboxed-command-1.sh' 'echo hi'";
const options: RunCommandOptions = { cwd: "/ws", signal: new AbortController().signal, timeoutMs: 5000, shownAs: "echo hi" };

describe("ShownCommand", () => {
  it("runs the wrapper, shows the command once and the output with terminal line ends, never the wrapper", async () => {
    const { runner, runs, emit, finish } = fakeRunner();
    const { screen, written, revealed } = fakeScreen();
    const command = new ShownCommand(LAUNCHER, "echo hi", options, runner, screen);
    const heard: string[] = [];
    command.onOutput((text) => heard.push(text));
    emit("hi\nthere");
    finish({ exitCode: 0, signal: null, stoppedBy: null });
    expect(await command.completion).toEqual({ exitCode: 0, signal: null, stoppedBy: null });
    expect(runs).toEqual([{ line: LAUNCHER, options: { cwd: "/ws", signal: options.signal, timeoutMs: 5000 } }]);
    expect(written()).toBe(`${commandLine("echo hi")}hi\r\nthere\r\n`);
    expect(written().split("echo hi").length - 1).toBe(1);
    expect(written()).not.toContain("launchers");
    // The core hears the output as the program wrote it.
    expect(heard).toEqual(["hi\nthere"]);
    expect(revealed()).toBe(1);
  });

  it("stops the command on Ctrl-C or a closed terminal, and stops listening once it ended", async () => {
    const { runner, finish, killed } = fakeRunner();
    const { screen, stop, listening } = fakeScreen();
    const command = new ShownCommand(LAUNCHER, "echo hi", options, runner, screen);
    stop();
    expect(killed()).toBe(1);
    expect((await command.completion).stoppedBy).toBe("kill");
    expect(listening()).toBe(0);
    finish({ exitCode: 0, signal: null, stoppedBy: null });
  });
});

describe("terminal text", () => {
  it("writes the typed line with a dim prompt and CR LF, a multi-line command too", () => {
    expect(commandLine("echo hi")).toBe("\x1b[2m$\x1b[0m echo hi\r\n");
    expect(commandLine("a\nb")).toBe("\x1b[2m$\x1b[0m a\r\nb\r\n");
  });

  it("turns LF into CR LF and ends on a fresh line", () => {
    const ends = new LineEnds();
    expect(ends.push("a\r\nb\n")).toBe("a\r\nb\r\n");
    expect(ends.end()).toBe("");
    expect(ends.push("no newline")).toBe("no newline");
    expect(ends.end()).toBe("\r\n");
  });

  it("knows Ctrl-C", () => {
    expect(isInterrupt("\x03")).toBe(true);
    expect(isInterrupt("q")).toBe(false);
  });
});
