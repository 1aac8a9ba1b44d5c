/**
 * Sandboxed commands cannot read Tandem's data folder, wherever XDG_DATA_HOME puts it: not the
 * MCP settings with their servers' keys, not another workspace's saved tasks, not this run's own
 * history. Through the production CLI with storage on, the data folder outside HOME and the
 * workspace (the case a fixed HOME-relative rule would miss).
 *
 *   npx vitest run test/sandbox/data-folder.test.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandTurn, sandboxLine, SandboxCli, toolResultIn } from "./sandbox-cli";

const MCP_KEY = "MCP_KEY_IN_DATA_FOLDER_7d21";
const OTHER_TASK = "OTHER_WORKSPACE_TASK_5c0e";
/** Reads through an interpreter, which the guard lets run: only the sandbox can stop it. */
const read = (file: string) => `python3 -c "import sys; print(open(sys.argv[1]).read())" '${file}'; echo "read-exit-$?"`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tandem-sandbox-data-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the data folder inside the sandbox", () => {
  it("is hidden from commands when XDG_DATA_HOME lies outside HOME, and the model never sees its files", async () => {
    const home = path.join(dir, "home");
    const ws = path.join(dir, "ws");
    const dataHome = path.join(dir, "xdg-data");
    const data = path.join(dataHome, "tandem");
    const settings = path.join(data, "tandem_mcp_settings.json");
    const otherTask = path.join(data, "workspaces", "other-0123456789ab", "tasks", "t1", "api_conversation_history.json");
    await mkdir(home, { recursive: true });
    await mkdir(ws, { recursive: true });
    await mkdir(path.dirname(otherTask), { recursive: true });
    await writeFile(settings, JSON.stringify({ mcpServers: { db: { command: "db-server", env: { DB_TOKEN: MCP_KEY } } } }));
    await writeFile(otherTask, JSON.stringify([{ role: "user", content: OTHER_TASK }]));

    const run = await SandboxCli.shipped().run({
      home,
      ws,
      storage: true,
      env: { XDG_DATA_HOME: dataHome },
      turns: [commandTurn(read(settings), {}, "call_0"), commandTurn(read(otherTask), {}, "call_1"), commandTurn(`ls -R '${data}'; echo "ls-exit-$?"`, {}, "call_2")],
    });
    const results = [1, 2, 3].map((i) => toolResultIn(run.requests, i) ?? "(no result)");
    const about = `exit ${run.code}; ${sandboxLine(run.stderr) ?? "no Sandbox line"}\n${results.join("\n---\n")}\nstderr: ${run.stderr.slice(-1200)}`;

    expect(sandboxLine(run.stderr), about).toMatch(/^Sandbox: on/);
    expect(run.code, about).toBe(0);
    // Whether the sandbox shows an empty folder or none at all, nothing of it gets through.
    expect(results[0], about).not.toContain(MCP_KEY);
    expect(results[1], about).not.toContain(OTHER_TASK);
    expect(results[2], about).not.toMatch(/tandem_mcp_settings|other-0123456789ab|task_history/);
    expect(results[2], about).toContain("ls-exit-");
    const everything = JSON.stringify(run.requests.map((r) => r.body));
    expect(everything).not.toContain(MCP_KEY);
    expect(everything).not.toContain(OTHER_TASK);
  });
});
