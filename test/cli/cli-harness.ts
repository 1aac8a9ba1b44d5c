/**
 * What every CLI test needs: the shipped `tandem` CLI bundle (built once per run, see
 * test/support/bundles.ts), a temp folder for HOME and workspaces, the scripted model
 * server (in the test's process: the CLI is the process under test), and a way to run the CLI as a person or a CI job would.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { productionCli } from "../support/bundles";
import type { ScriptedListModel } from "../support/model-list-routes";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { startScriptedModelServer } from "../support/scripted-model-server";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliHarness {
  /** The temp folder: HOME of every run, and where workspaces go. */
  readonly dir: string;
  readonly cliPath: string;
  readonly serverUrl: string;
  /** HOME, PATH and an Anthropic key and endpoint pointing at the scripted server. */
  readonly env: Record<string, string>;
  script(turns: ScriptTurn[]): Promise<void>;
  /** Drops the turns a killed run left unserved. */
  dropScript(): Promise<void>;
  requests(): Promise<RecordedRequest[]>;
  workspace(): Promise<string>;
  /** `replaceEnv`: the run gets only `env`, none of the harness's Anthropic variables. */
  run(args: string[], options?: { env?: Record<string, string>; cwd?: string; killAfterMs?: number; replaceEnv?: boolean }): Promise<CliRun>;
  /** What the server's model-list routes (Ollama's, LM Studio's, OpenRouter's) answer from now on. */
  setListedModels(models: readonly ScriptedListModel[]): void;
  close(): Promise<void>;
}

export async function startCliHarness(): Promise<CliHarness> {
  const dir = await mkdtemp(join(tmpdir(), "tandem-cli-"));
  const cliPath = productionCli();
  const server = await startScriptedModelServer();
  const serverUrl = server.url;
  const env = { PATH: process.env.PATH ?? "", HOME: dir, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: serverUrl };

  return {
    dir,
    cliPath,
    serverUrl,
    env,
    async script(turns) {
      const response = await fetch(`${serverUrl}/__script`, { method: "POST", body: JSON.stringify(turns) });
      if (!response.ok) throw new Error(`scripting the server failed: ${response.status} ${await response.text()}`);
    },
    async dropScript() {
      await fetch(`${serverUrl}/__script`, { method: "DELETE" });
    },
    async requests() {
      return (await (await fetch(`${serverUrl}/__requests`)).json()) as RecordedRequest[];
    },
    workspace: () => mkdtemp(join(dir, "ws-")),
    run: (args, options = {}) => runCli(cliPath, args, options.replaceEnv ? { ...options.env } : { ...env, ...options.env }, options.cwd, options.killAfterMs),
    setListedModels: (models) => server.modelLists.setModels(models),
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function runCli(cliPath: string, args: string[], env: Record<string, string>, cwd?: string, killAfterMs = 45_000): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // A hung runner must fail its own test, not leak into the next one. Under the test timeout
    // (60 s), far above a run's time alone (1 to 2 s): beside the e2e suite a run with three
    // checkpoints once took over 15 s.
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The text the model was sent in a request, every block joined (tool results included). */
export function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages ?? request.body.input ?? []);
}
