/**
 * The next start of the bundled CLI removes the temp files killed writers left, in the workspace
 * and in the task folders, and nothing else. The bundle is the production one of this test run.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionCli } from "../support/bundles";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

let dir: string;
let cliPath: string;
let server: ScriptedModelServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-cli-cleanup-"));
  cliPath = productionCli();
  server = await startScriptedModelServer({ turns: [{ text: "<attempt_completion>\n<result>Nothing to do.</result>\n</attempt_completion>" }] });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function runCli(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
      stdio: "ignore",
    });
    child.on("exit", resolve);
  });
}

describe("tandem at start", () => {
  it("removes the temp files of writers that are gone, in the workspace and the saved tasks", async () => {
    const workspace = await mkdtemp(join(dir, "ws-"));
    const storage = join(dir, "store");
    // A pid far above any Linux pid_max: that writer is surely gone.
    const leftovers = [join(workspace, "src", ".app.ts.tandem-99999999-0a1b2c3d.tmp"), join(storage, "tasks", "old", ".ui_messages.jsonl.tandem-99999999-00ff00ff.tmp")];
    const kept = [join(workspace, "src", "app.ts"), join(workspace, ".foo.tmp"), join(storage, "tasks", "old", "ui_messages.jsonl")];
    for (const file of [...leftovers, ...kept]) {
      await mkdir(join(file, ".."), { recursive: true });
      await writeFile(file, "x");
    }
    expect(await runCli(["--yolo", "--cwd", workspace, "--storage", storage, "Do nothing"])).toBe(0);
    for (const file of leftovers) expect(existsSync(file), file).toBe(false);
    for (const file of kept) expect(existsSync(file), file).toBe(true);
  }, 30_000);
});
