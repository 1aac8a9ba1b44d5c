/**
 * kill -9 at random moments of a real task (its own process, the real SDK and scripted model
 * server, real files): after each kill the saved task loads, holds every message that was complete
 * and lost nothing an earlier run saved; the next run resumes it, and the last one finishes it.
 * Half the runs compact after a few hundred bytes, so kills land inside compactions too.
 * The seed is printed; CRASH_SEED=<n> replays a run.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTempName } from "../../src/core/storage/temp-name";
import { CRASH_TASK_ID, checkSaved, parseCrashLog, type Saved } from "./crash-log";
import { prepareWorkspace } from "./storage-task";
import { prng } from "../support/prng";

const KILLS = 12;
const MAX_DELAY_MS = 1_500;
/** Rounds scripted for a run that is killed (it never gets through them) and for the last one. */
const KILLED_ROUNDS = 1_000;
const LAST_ROUNDS = 40;

let dir: string;
let childPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tandem-crash-"));
  childPath = join(dir, "crash-child.js");
  // Bundled once, so each of the many runs starts in a fraction of a second.
  await esbuild.build({
    entryPoints: ["test/storage/crash-child.ts"],
    outfile: childPath,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    define: { "import.meta.url": "__tandemImportMetaUrl" },
    banner: { js: 'const __tandemImportMetaUrl = require("url").pathToFileURL(__filename).href;' },
    logLevel: "silent",
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

interface RunResult {
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the child; kills it `killAfterMs` after it started its task (undefined: lets it finish). */
function runChild(args: string[], run: number, killAfterMs: number | undefined): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [childPath, ...args], { env: { ...process.env, CRASH_RUN: String(run) }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let killed = false;
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (data: Buffer) => {
      const first = !stdout.includes("started\n");
      stdout += data.toString();
      if (first && stdout.includes("started\n") && killAfterMs !== undefined) {
        setTimeout(() => (killed = child.kill("SIGKILL")), killAfterMs);
      }
    });
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("exit", () => {
      clearTimeout(guard);
      resolve({ killed, stdout, stderr });
    });
  });
}


describe("a task killed with SIGKILL at any moment", () => {
  it("reads back every completed message, never a damaged or stale one, and resumes to the end", async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    console.log(`crash test seed ${seed}`);
    const random = prng(seed);
    const root = await mkdtemp(join(dir, "store-"));
    const workspace = await mkdtemp(join(dir, "ws-"));
    await prepareWorkspace(workspace);
    const logFile = join(dir, `log-${seed}.jsonl`);
    const compaction = (run: number) => (run % 2 === 0 ? ["0.25", "512"] : ["1", "65536"]);

    let before: Saved | undefined;
    let kills = 0;
    for (let run = 0; run <= KILLS; run++) {
      const last = run === KILLS;
      const delay = last ? undefined : Math.floor(random() * MAX_DELAY_MS);
      const rounds = String(last ? LAST_ROUNDS : KILLED_ROUNDS);
      const result = await runChild([root, workspace, logFile, run === 0 ? "new" : "resume", rounds, ...compaction(run)], run, delay);
      if (!result.killed) expect(result.stderr, `run ${run} failed`).toBe("");
      if (result.killed) kills++;
      console.log(`run ${run}: ${result.killed ? `killed ${delay} ms after it started` : result.stdout.trim().split("\n").at(-1)}`);
      const log = parseCrashLog(await readFile(logFile, "utf8").catch(() => ""));
      const { saved, problems } = await checkSaved(root, log, run, before);
      expect(problems, `after run ${run} (${delay === undefined ? "not killed" : `killed ${delay} ms in`}), seed ${seed}`).toEqual([]);
      before = saved;
      if (last) {
        expect(result.stdout).toContain("outcome completed");
        expect(saved.chat.some((m) => m.type === "ask" && m.ask === "completion_result")).toBe(true);
      }
    }
    expect(kills).toBe(KILLS);
    // Each start removed what earlier kills left: only files of the finished run remain.
    const files = await readdir(join(root, "tasks", CRASH_TASK_ID));
    expect(files.filter((f) => parseTempName(f))).toEqual([]);
    expect(files.sort()).toEqual(["api_conversation_history.jsonl", "ui_messages.jsonl"]);
  }, 180_000);
});
