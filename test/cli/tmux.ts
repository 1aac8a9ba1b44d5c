/**
 * A real terminal for CLI tests: the CLI runs in a tmux pane (a pseudo-terminal, so stdin is a
 * TTY and readline is in raw mode), keys are typed with send-keys and the screen is read with
 * capture-pane. Each terminal has its own tmux server socket, so tests never touch anyone's tmux.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface Terminal {
  /** Types the keys (tmux key names: "Enter", "C-c", or literal text). */
  send(...keys: string[]): Promise<void>;
  /** The whole pane, scrollback included. */
  screen(): Promise<string>;
  /** Resolves with the screen once it matches; throws with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The command's exit code, once it ended. */
  exitCode(timeoutMs?: number): Promise<number>;
  /** With `record`: every byte the pane was sent since it opened, control characters (a bell) included. */
  output(): Promise<string>;
  close(): Promise<void>;
}

let terminals = 0;

export async function openTerminal(dir: string, argv: string[], env: Record<string, string>, options: { record?: boolean } = {}): Promise<Terminal> {
  const name = `tandem-test-${process.pid}-${terminals++}`;
  const codeFile = join(dir, `${name}.code`);
  const script = join(dir, `${name}.sh`);
  const recording = join(dir, `${name}.out`);
  const ready = join(dir, `${name}.ready`);
  const exports = Object.entries(env).map(([key, value]) => `export ${key}=${shellQuote(value)}`);
  // The pane stays open after the CLI exits, so its last screen can still be read. The exit code
  // file appears whole (renamed into place), never empty.
  // Recorded: the command starts only once tmux pipes the pane to the file, so no byte is missed.
  const waitForRecording = options.record ? [`while [ ! -e ${shellQuote(ready)} ]; do sleep 0.02; done`] : [];
  await writeFile(script, [...exports, ...waitForRecording, `${argv.map(shellQuote).join(" ")}`, `echo $? > ${shellQuote(`${codeFile}.tmp`)} && mv ${shellQuote(`${codeFile}.tmp`)} ${shellQuote(codeFile)}`, "sleep 600", ""].join("\n"));
  const tmux = (...args: string[]) => run("tmux", ["-L", name, "-f", "/dev/null", ...args]);
  await tmux("new-session", "-d", "-s", "main", "-x", "150", "-y", "50", `sh ${shellQuote(script)}`);
  if (options.record) {
    await tmux("pipe-pane", "-t", "main", "-o", `cat >> ${shellQuote(recording)}`);
    await writeFile(ready, "");
  }

  const screen = async () => (await tmux("capture-pane", "-p", "-t", "main", "-S", "-500")).stdout;
  const poll = async <T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${await screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    async send(...keys) {
      await tmux("send-keys", "-t", "main", ...keys);
    },
    screen,
    waitFor: (pattern, timeoutMs = 15_000) =>
      poll(
        async () => {
          const text = await screen();
          return pattern.test(text) ? text : undefined;
        },
        timeoutMs,
        String(pattern),
      ),
    output: async () => (existsSync(recording) ? readFile(recording, "latin1") : ""),
    exitCode: (timeoutMs = 15_000) =>
      poll(async () => (existsSync(codeFile) ? Number((await readFile(codeFile, "utf8")).trim()) : undefined), timeoutMs, "the CLI to exit"),
    async close() {
      await tmux("kill-server").catch(() => {});
    },
  };
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
