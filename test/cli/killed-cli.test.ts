/**
 * Nothing Tandem started outlives a `kill -9` of the CLI: a command still running (outside the
 * sandbox and inside it) and a hook still running, each with a child that left its process group
 * (`setsid`). Each runs under a lifeline (src/core/util/lifeline.ts) whose watcher sees the CLI's
 * end of a pipe close and ends them.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { gone, withArgument } from "../support/marked-processes";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const markers: string[] = [];
afterEach(async () => {
  await cli.dropScript();
  for (const pid of withArgument(markers.splice(0))) process.kill(pid, "SIGKILL");
});

function newMarker(): string {
  const marker = `300.${process.pid}${Date.now() % 100_000}`;
  markers.push(marker);
  return marker;
}

/**
 * Runs the CLI until processes with `marker` run (both of them: `count`), then kills it with
 * SIGKILL. Returns the CLI's own children that were running then (the sandbox's socat bridge).
 */
async function killWhenRunning(args: string[], marker: string, count: number): Promise<{ pid: number; cmdline: string }[]> {
  const child = spawn(process.execPath, [cli.cliPath, ...args], { env: cli.env, stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    await expect.poll(() => sleeps(marker).length, { timeout: 30_000, interval: 100 }).toBe(count);
    return childrenOf(child.pid ?? -1);
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

function childrenOf(parent: number): { pid: number; cmdline: string }[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== parent) return [];
        return [{ pid: Number(pid), cmdline: readFileSync(`/proc/${pid}/cmdline`, "utf8") }];
      } catch {
        return [];
      }
    });
}

/** Those of `pids` still running (a zombie is not) once none are, or `withinMs` passed. */
async function stillRunning(pids: readonly number[], withinMs: number): Promise<number[]> {
  const running = () => pids.filter((pid) => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  });
  const deadline = Date.now() + withinMs;
  while (running().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return running();
}

/** The `sleep <marker>` processes (the shells that start them name the marker too). */
function sleeps(marker: string): number[] {
  return withArgument([marker]).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep\0");
    } catch {
      return false;
    }
  });
}

const commandTurn = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });

describe.skipIf(process.platform !== "linux")("a kill -9 of the CLI", { timeout: 90_000 }, () => {
  for (const sandbox of ["off", "on"]) {
    it(`ends the command still running and its setsid child (sandbox ${sandbox})`, async () => {
      const marker = newMarker();
      const workspace = await cli.workspace();
      await cli.script([commandTurn(`setsid sleep ${marker} & sleep ${marker}`)]);
      const children = await killWhenRunning(["--cwd", workspace, "--yolo", "--sandbox", sandbox, "--no-storage", "Run it"], marker, 2);
      expect(await gone(marker, 8_000)).toEqual([]);
      // With the sandbox on, its network bridge (socat) was one of the CLI's children: it goes too.
      if (sandbox === "on") expect(children.filter((c) => c.cmdline.includes("socat")).length).toBeGreaterThan(0);
      expect(await stillRunning(children.map((c) => c.pid), 3_000)).toEqual([]);
    });
  }

  it("ends the hook still running and its setsid child", async () => {
    const marker = newMarker();
    const workspace = await cli.workspace();
    const dir = join(workspace, ".tandem", "hooks");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "TaskStart"), `#!/bin/sh\ncat > /dev/null\nsetsid sleep ${marker} &\nsleep ${marker}\n`);
    await chmod(join(dir, "TaskStart"), 0o755);
    await killWhenRunning(["--cwd", workspace, "--yolo", "--trust-workspace", "--sandbox", "off", "--no-storage", "Nothing to do"], marker, 2);
    expect(await gone(marker, 8_000)).toEqual([]);
  });
});
