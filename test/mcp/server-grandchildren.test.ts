/**
 * Security issue 29: what an MCP server started with `setsid` (out of its process group, so the
 * group's kill missed it) must die with the server when the CLI run ends: the server's own child,
 * and one orphaned at once by a shell that exited.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startCliHarness, type CliHarness } from "../cli/cli-harness";
import { fixture } from "./support";
import { gone, withArgument } from "../support/marked-processes";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const markers: string[] = [];
afterEach(() => {
  for (const pid of withArgument(markers.splice(0))) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
});

describe.skipIf(process.platform !== "linux")("an MCP server's setsid grandchildren", { timeout: 90_000 }, () => {
  it("do not outlive the CLI run", async () => {
    const marker = `301.${process.pid}${Date.now() % 100_000}`;
    markers.push(marker);
    const ws = await cli.workspace();
    const pidsFile = join(ws, "..", `sleepers-${marker}`);
    const folder = join(ws, "..", `cfg-${marker}`);
    await mkdir(folder, { recursive: true });
    const config = join(folder, "servers.json");
    await writeFile(config, JSON.stringify({ mcpServers: { escapes: { command: process.execPath, args: [fixture("setsid-child-server.mjs"), marker, pidsFile] } } }));
    await cli.script([{ text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }]);
    const run = await cli.run(["--cwd", ws, "--yolo", "--mcp-config", config, "Nothing to do"], { killAfterMs: 40_000 });
    await cli.dropScript();
    expect(run.code, run.stderr).toBe(0);
    // The server did start both, out of its group.
    const started = (await readFile(pidsFile, "utf8")).split("\n").filter(Boolean);
    expect(started).toHaveLength(2);
    expect(await gone(marker, 3000)).toEqual([]);
  });

  it("do not outlive a kill -9 of the CLI: the server's watcher finds them by their mark", async () => {
    const marker = `302.${process.pid}${Date.now() % 100_000}`;
    markers.push(marker);
    const ws = await cli.workspace();
    const pidsFile = join(ws, "..", `sleepers-${marker}`);
    const folder = join(ws, "..", `cfg-${marker}`);
    await mkdir(folder, { recursive: true });
    const config = join(folder, "servers.json");
    await writeFile(config, JSON.stringify({ mcpServers: { escapes: { command: process.execPath, args: [fixture("setsid-child-server.mjs"), marker, pidsFile] } } }));
    // The model never answers: the run is still going when it is killed.
    await cli.script([{ kind: "fault", fault: "stall" }]);
    const run = await cli.run(["--cwd", ws, "--yolo", "--mcp-config", config, "Wait"], { killAfterMs: 8_000 });
    await cli.dropScript();
    expect(run.code).toBeNull();
    const started = (await readFile(pidsFile, "utf8")).split("\n").filter(Boolean);
    expect(started).toHaveLength(2);
    // The watcher's TERM, then its KILL 2 s later.
    expect(await gone(marker, 6000)).toEqual([]);
  });
});
