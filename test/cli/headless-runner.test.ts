/**
 * The headless runner as a person runs it: the bundled `tandem` CLI in its own process, talking
 * to the scripted model server started as another process.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { historyProblems } from "../support/history-checks";
import type { ScriptTurn } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
let dir: string;
let cliPath: string;
let serverUrl: string;

beforeAll(async () => {
  cli = await startCliHarness();
  ({ dir, cliPath, serverUrl } = cli);
});

afterAll(async () => {
  await cli?.close();
});

const script = (turns: ScriptTurn[]) => cli.script(turns);
const runCli = (args: string[], env: Record<string, string>) => cli.run(args, { env });

describe("tandem (headless runner)", () => {
  it("runs a task to completion in YOLO mode and exits 0", async () => {
    const workspace = await mkdtemp(join(dir, "ws-"));
    await script([
      { text: "Creating it.\n<write_to_file>\n<path>hello.txt</path>\n<content>\nhi there\n</content>\n</write_to_file>" },
      { text: "<attempt_completion>\n<result>Created hello.txt</result>\n</attempt_completion>" },
    ]);
    const result = await runCli(["--yolo", "--cwd", workspace, "Create hello.txt"], {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: serverUrl,
    });
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Creating it.");
    expect(result.stdout).toContain("Created hello.txt");
    expect(await readFile(join(workspace, "hello.txt"), "utf8")).toBe("hi there\n");
  });

  it("prints one JSON object per message with --json, through the OpenAI protocol", async () => {
    const workspace = await mkdtemp(join(dir, "ws-"));
    await writeFile(join(workspace, "a.txt"), "alpha\n");
    await script([
      { text: "<read_file>\n<path>a.txt</path>\n</read_file>" },
      { text: "<attempt_completion>\n<result>It says alpha.</result>\n</attempt_completion>" },
    ]);
    const result = await runCli(["--json", "--yolo", "--provider", "openai", "--base-url", `${serverUrl}/v1`, "--cwd", workspace, "What is in a.txt?"], {
      OPENAI_API_KEY: "test-key",
    });
    expect(result.code).toBe(0);
    const messages = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; say?: string; text?: string });
    expect(messages[0]).toMatchObject({ type: "say", say: "task", text: "What is in a.txt?" });
    expect(messages.some((m) => m.say === "completion_result" && m.text === "It says alpha.")).toBe(true);
  });

  it("exits non-zero when the task fails (an auth error is not retried)", async () => {
    await script([{ kind: "fault", fault: "auth" }]);
    const result = await runCli(["--yolo", "--cwd", dir, "Anything"], { ANTHROPIC_API_KEY: "bad", ANTHROPIC_BASE_URL: serverUrl });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/api_req_failed|401|auth/i);
  });

  it("exits 2 at the mistake limit in YOLO mode", async () => {
    await script([{ text: "hmm" }, { text: "hmm" }, { text: "hmm" }]);
    const result = await runCli(["--yolo", "--cwd", dir, "Anything"], { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: serverUrl });
    expect(result.code).toBe(2);
  });

  it("leaves readable task files on disk when killed at any moment", async () => {
    const storage = await mkdtemp(join(dir, "store-"));
    const workspace = await mkdtemp(join(dir, "ws-"));
    const turns: ScriptTurn[] = [
      { text: "<write_to_file>\n<path>a.txt</path>\n<content>a</content>\n</write_to_file>", chunkSize: 4, delayMs: 2 },
      { text: "<write_to_file>\n<path>b.txt</path>\n<content>b</content>\n</write_to_file>", chunkSize: 4, delayMs: 2 },
      { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>", chunkSize: 4, delayMs: 2 },
    ];
    const env = { PATH: process.env.PATH ?? "", HOME: dir, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: serverUrl };
    const args = [cliPath, "--json", "--yolo", "--storage", storage, "--cwd", workspace, "Write two files"];
    // Killed after the k-th printed message: at different points of the task each time.
    for (const killAfterLines of [1, 2, 4, 6, 8]) {
      await script(turns);
      const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"] });
      let lines = 0;
      child.stdout.on("data", (data: Buffer) => {
        lines += data.toString().split("\n").length - 1;
        if (lines >= killAfterLines) child.kill("SIGKILL");
      });
      await new Promise((resolve) => child.on("exit", resolve));
      // Drop what the killed run left in the script, so the next run starts clean.
      expect((await fetch(`${serverUrl}/__script`, { method: "DELETE" })).ok).toBe(true);
    }
    await script(turns);
    expect((await runCli(args.slice(1), env)).code).toBe(0);

    const tasks = await readdir(join(storage, "tasks"));
    expect(tasks.length).toBeGreaterThan(1);
    for (const task of tasks) {
      // Every killed run's task loads whole, through the same loader Tandem resumes with.
      const saved = new TaskStorage(storage, task);
      const chat = await saved.loadChatMessages();
      expect(chat[0]).toMatchObject({ type: "say", say: "task", text: "Write two files" });
      expect(historyProblems(await saved.loadApiHistory())).toEqual([]);
    }
  });

  it("rejects bad arguments with usage and exit code 64", async () => {
    const result = await runCli(["--provider", "nope", "task"], {});
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('Unknown provider "nope"');
    expect(result.stderr).toContain("Usage: tandem");
  });

  it("cancels cleanly on Ctrl-C (SIGINT) and exits 130", async () => {
    await script([{ text: "slow ".repeat(2000), chunkSize: 5, delayMs: 5 }]);
    const child = spawn(process.execPath, [cliPath, "--yolo", "--cwd", dir, "Write slowly"], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: serverUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => d.toString().includes("slow") && resolve()));
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(130);
  });
});
