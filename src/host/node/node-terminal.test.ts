import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gone, withArgument } from "../../../test/support/marked-processes";
import { tempDir } from "../../../test/support/tool-context";
import type { RunningCommand } from "../bridge";
import { NodeTerminal } from "./node-terminal";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function workspace(): Promise<string> {
  const { dir, cleanup } = await tempDir("tandem-term-");
  cleanups.push(cleanup);
  return dir;
}

/** Everything the command printed, collected as it arrives. */
function collect(command: RunningCommand): { text: () => string; chunks: string[] } {
  const chunks: string[] = [];
  command.onOutput((text) => chunks.push(text));
  return { text: () => chunks.join(""), chunks };
}

/** A zombie counts as dead: it no longer runs, only waits for a parent to reap it. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function waitUntilDead(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isAlive(pid);
}

/** Resolves with the first output line, e.g. a pid the command printed. */
function firstLine(output: { text: () => string }): Promise<string> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const line = /^(.*)\n/.exec(output.text())?.[1];
      if (line !== undefined) {
        clearInterval(poll);
        resolve(line);
      }
    }, 10);
  });
}

const never = new AbortController().signal;

describe.skipIf(process.platform === "win32")("NodeTerminal", () => {
  it("streams stdout and stderr as they arrive and reports the exit code", async () => {
    const cwd = await workspace();
    const command = new NodeTerminal({ shell: "/bin/sh" }).run("echo one; sleep 0.6; echo two >&2; pwd; exit 7", { cwd, signal: never });
    const output = collect(command);
    expect(await firstLine(output)).toBe("one");
    expect(output.text()).not.toContain("two");
    const exit = await command.completion;
    expect(exit).toEqual({ exitCode: 7, signal: null, stoppedBy: null });
    expect(output.text()).toBe(`one\ntwo\n${cwd}\n`);
  });

  it("closes stdin, so a command reading it sees the end at once", async () => {
    const cwd = await workspace();
    const command = new NodeTerminal({ shell: "/bin/sh" }).run("cat; echo read-done", { cwd, signal: never });
    const output = collect(command);
    expect((await command.completion).exitCode).toBe(0);
    expect(output.text()).toBe("read-done\n");
  });

  it("never splits a multibyte character across chunks", async () => {
    const cwd = await workspace();
    // "é" is \303\251 and "€" is \342\202\254 in UTF-8; each is written in two halves with a pause between.
    const script = "printf '\\303'; sleep 0.2; printf '\\251 '; sleep 0.2; printf '\\342\\202'; sleep 0.2; printf '\\254\\n'";
    const command = new NodeTerminal({ shell: "/bin/sh" }).run(script, { cwd, signal: never });
    const output = collect(command);
    await command.completion;
    expect(output.text()).toBe("é €\n");
    expect(output.chunks.join("")).not.toContain("\uFFFD");
    expect(output.chunks.length).toBeGreaterThan(1);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const cwd = await workspace();
    const command = new NodeTerminal({ shell: "/bin/sh" }).run("sleep 30 & echo $!; wait", { cwd, timeoutMs: 300, signal: never });
    const output = collect(command);
    const grandchild = Number(await firstLine(output));
    expect(isAlive(grandchild)).toBe(true);
    const started = Date.now();
    const exit = await command.completion;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(exit.stoppedBy).toBe("timeout");
    expect(exit.signal).toBe("SIGTERM");
    expect(await waitUntilDead(grandchild, 2_000)).toBe(true);
  });

  it("kills the whole process group when the signal aborts", async () => {
    const cwd = await workspace();
    const abort = new AbortController();
    const command = new NodeTerminal({ shell: "/bin/sh" }).run("sh -c 'sleep 30 & echo $!; wait'", { cwd, signal: abort.signal });
    const output = collect(command);
    const grandchild = Number(await firstLine(output));
    abort.abort();
    const exit = await command.completion;
    expect(exit.stoppedBy).toBe("abort");
    expect(await waitUntilDead(grandchild, 2_000)).toBe(true);
  });

  it("kills what left the group (setsid) on timeout and on abort, found by its parent or by its mark", async () => {
    const cwd = await workspace();
    const terminal = new NodeTerminal({ shell: "/bin/sh", killGraceMs: 300 });
    // One stays the shell's child; one is orphaned at once (its parent exits), so only its mark finds it.
    const timed = terminal.run("setsid sleep 30.4711 & sh -c 'setsid sleep 30.4712 &'; echo started; sleep 30", { cwd, timeoutMs: 4_000, signal: never });
    expect(await firstLine(collect(timed))).toBe("started");
    // The two sleeps (the shells name them too).
    const sleeps = () => withArgument(["30.4711", "30.4712"]).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep\0"));
    await expect.poll(() => sleeps().length, { timeout: 2_000 }).toBe(2);
    expect((await timed.completion).stoppedBy).toBe("timeout");
    expect(await gone("30.471", 3_000)).toEqual([]);

    const abort = new AbortController();
    const aborted = terminal.run("setsid sh -c 'trap \"\" TERM; sleep 30.4713' & echo started; sleep 30", { cwd, signal: abort.signal });
    expect(await firstLine(collect(aborted))).toBe("started");
    abort.abort();
    expect((await aborted.completion).stoppedBy).toBe("abort");
    // It ignores SIGTERM: the SIGKILL after the grace ends it.
    expect(await gone("30.4713", 3_000)).toEqual([]);
  });

  it("leaves what a command started in the background running when the command ends by itself", async () => {
    const cwd = await workspace();
    const command = new NodeTerminal({ shell: "/bin/sh" }).run("setsid sleep 30.4714 >/dev/null 2>&1 & echo $!", { cwd, signal: never });
    const output = collect(command);
    expect((await command.completion).exitCode).toBe(0);
    const pid = Number(output.text().trim());
    try {
      expect(isAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("escalates to SIGKILL for a group that ignores SIGTERM", async () => {
    const cwd = await workspace();
    const terminal = new NodeTerminal({ shell: "/bin/sh", killGraceMs: 200 });
    const command = terminal.run("trap '' TERM; sleep 30 & echo $!; wait", { cwd, signal: never });
    const output = collect(command);
    const grandchild = Number(await firstLine(output));
    command.kill();
    const exit = await command.completion;
    expect(exit).toEqual({ exitCode: null, signal: "SIGKILL", stoppedBy: "kill" });
    expect(await waitUntilDead(grandchild, 2_000)).toBe(true);
  });

  it("does not wait for a background program that keeps the output open", async () => {
    const cwd = await workspace();
    const command = new NodeTerminal({ shell: "/bin/sh", drainMs: 100 }).run("sleep 30 & echo $!; echo started", { cwd, signal: never });
    const output = collect(command);
    const exit = await command.completion;
    expect(exit).toEqual({ exitCode: 0, signal: null, stoppedBy: null });
    expect(output.text()).toMatch(/^\d+\nstarted\n$/);
    process.kill(Number(output.text().split("\n")[0]), "SIGKILL");
  });

  it("does not start a command whose signal is already aborted", async () => {
    const cwd = await workspace();
    const abort = new AbortController();
    abort.abort();
    const marker = join(cwd, "ran");
    const command = new NodeTerminal({ shell: "/bin/sh" }).run(`touch ${marker}`, { cwd, signal: abort.signal });
    expect(await command.completion).toEqual({ exitCode: null, signal: null, stoppedBy: "abort" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(marker)).toBe(false);
  });

  it("rejects with the folder's name when the folder does not exist", async () => {
    const cwd = join(await workspace(), "missing");
    const command = new NodeTerminal({ shell: "/bin/sh" }).run("echo hi", { cwd, signal: never });
    await expect(command.completion).rejects.toThrow(`Could not start the command in ${cwd}`);
  });

  it("uses $SHELL by default", async () => {
    const cwd = await workspace();
    const saved = process.env.SHELL;
    process.env.SHELL = "/bin/sh";
    try {
      const command = new NodeTerminal().run('echo "$0"', { cwd, signal: never });
      const output = collect(command);
      await command.completion;
      expect(output.text()).toBe("/bin/sh\n");
    } finally {
      if (saved === undefined) delete process.env.SHELL;
      else process.env.SHELL = saved;
    }
  });
});
