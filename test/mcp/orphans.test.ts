/**
 * stdio servers die with the hub: on shutdown, and when the process that runs the hub is killed
 * with SIGKILL (no cleanup code runs then), together with what the servers started.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, startHub, stdio } from "./support";

function alive(pid: number): boolean {
  try {
    // A zombie no one reaps (PID 1 in a container may not) is dead for our purpose.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function survivors(pids: number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(process.platform === "win32")("no orphans", () => {
  it("kill -9 of the process running the hub leaves no server nor grandchild alive", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "tandem-mcp-orphans-"));
    const config = path.join(folder, "mcp.json");
    await writeFile(config, JSON.stringify({ mcpServers: { a: stdio(fixture("tool-server.mjs")), b: stdio(fixture("tool-server.mjs")) } }));
    const runner = spawn(process.execPath, ["--import", "tsx", fixture("hub-runner.mts"), config], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        runner.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("\n")) resolve(out);
        });
        runner.once("exit", (code) => reject(new Error(`runner exited with ${code}`)));
      });
      const pids = JSON.parse(line) as number[];
      expect(pids).toHaveLength(4);
      expect(pids.every(alive)).toBe(true);
      runner.kill("SIGKILL");
      expect(await survivors(pids, 5000)).toEqual([]);
    } finally {
      runner.kill("SIGKILL");
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("shutdown ends the servers and what they started", async () => {
    const t = await startHub({ a: stdio(fixture("tool-server.mjs")) });
    await t.hub.waitForConnections();
    const result = await t.hub.callTool("a", "spawn-child", {});
    const { server, child } = JSON.parse(result.content[0]?.type === "text" ? result.content[0].text : "{}") as { server: number; child: number };
    expect([server, child].every(alive)).toBe(true);
    await t.close();
    expect(await survivors([server, child], 3000)).toEqual([]);
  });
});
