/**
 * The sandbox finds bwrap, socat and the shell without running `which`. The library runs it under
 * a 1 s limit at every start and for every command; on a loaded CI machine the limit passed, the
 * library called an installed socat "not installed", and `--sandbox on` refused the command. Here
 * `which` finds nothing (what a limit that passes looks like) and records that it ran: the shipped
 * CLI still runs the command confined, and never asks it.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { commandTurn, sandboxLine, SandboxCli, SYSTEM_PATH, toolResultIn } from "./sandbox-cli";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-no-which-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("runs a command confined when `which` finds nothing, and never runs it", async () => {
  const bin = path.join(dir, "bin");
  const calls = path.join(dir, "which-calls.txt");
  await mkdir(bin);
  await writeFile(path.join(bin, "which"), `#!/bin/sh\necho "$*" >> '${calls}'\nexit 1\n`);
  await chmod(path.join(bin, "which"), 0o755);
  const home = await mkdtemp(path.join(dir, "home-"));
  const ws = await mkdtemp(path.join(dir, "ws-"));

  const run = await SandboxCli.shipped().run({
    home,
    ws,
    turns: [commandTurn("echo confined > out.txt && cat out.txt")],
    env: { PATH: `${bin}:${SYSTEM_PATH}` },
  });

  expect(run.code, run.stderr).toBe(0);
  expect(sandboxLine(run.stderr)).toMatch(/^Sandbox: on \(bubblewrap\)/);
  expect(existsSync(calls) ? await readFile(calls, "utf8") : "", "the calls of `which`").toBe("");
  const result = toolResultIn(run.requests, 1) ?? "";
  expect(result).toContain("confined");
  expect(await readFile(path.join(ws, "out.txt"), "utf8")).toBe("confined\n");
});
