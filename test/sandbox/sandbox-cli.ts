/**
 * The production CLI bundle run in YOLO with `--sandbox on`, as a process of its own, against a
 * scripted model server of its own (so runs can go side by side), with HOME and the workspace
 * in throwaway folders. The bundle is the one built once per test run (test/support/bundles.ts).
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { copyOfBundles, productionCli } from "../support/bundles";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { startScriptedModelServer } from "../support/scripted-model-server";

/** No pyenv or cargo shims: they look for their tools under HOME, which is the fake one. */
export const SYSTEM_PATH = [path.dirname(process.execPath), "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"].join(":");

export interface SandboxRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly requests: readonly RecordedRequest[];
  readonly ms: number;
}

export interface RunSpec {
  readonly home: string;
  readonly ws: string;
  /** The model's turns; a completion is added at the end. */
  readonly turns: readonly ScriptTurn[];
  /** More CLI arguments after `--yolo --sandbox on`. */
  readonly args?: readonly string[];
  /** Leave out `--yolo` (then whatever needs approval stops the unattended run). */
  readonly noYolo?: boolean;
  readonly timeoutMs?: number;
  /** The CLI's ANTHROPIC_API_KEY (default: a dummy; a case may make it a secret to look for). */
  readonly apiKey?: string;
  /** A cgroup folder (pids controller) to run the CLI and all it starts in. */
  readonly cgroup?: string;
  /** Run the CLI as this user (the test runs as root), not as the test's own. */
  readonly user?: { readonly uid: number; readonly gid: number };
  /** More environment for the CLI (e.g. XDG_DATA_HOME). */
  readonly env?: Readonly<Record<string, string>>;
  /** Keep the CLI's task storage on (the runs of this file leave it off with --no-storage). */
  readonly storage?: boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** An execute_command call as a native tool call. */
export function commandTurn(command: string, extra: Readonly<Record<string, string>> = {}, id = "call_cmd"): ScriptTurn {
  return { toolCalls: [{ id, name: "execute_command", input: { command, ...extra } }] };
}

export const COMPLETION: ScriptTurn = { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Done." } }] };

export class SandboxCli {
  private constructor(readonly cliPath: string) {}

  /** The production CLI bundle of this test run. */
  static shipped(): SandboxCli {
    return new SandboxCli(productionCli());
  }

  /** A copy of the bundles in `dir`/dist, for a user who may not reach this run's folder of them. */
  static async copiedTo(dir: string): Promise<SandboxCli> {
    return new SandboxCli(path.join(await copyOfBundles(path.join(dir, "dist")), "cli.js"));
  }

  async run(spec: RunSpec): Promise<SandboxRun> {
    const server = await startScriptedModelServer({ turns: [...spec.turns, COMPLETION] });
    const cliArgs = [this.cliPath, "--native-tools", ...(spec.storage ? [] : ["--no-storage"]), "--cwd", spec.ws, ...(spec.noYolo ? [] : ["--yolo"]), "--sandbox", "on", ...(spec.args ?? []), "Carry out the steps."];
    const env = {
      PATH: SYSTEM_PATH,
      HOME: spec.home,
      SHELL: "/bin/bash",
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: spec.apiKey ?? "test-key",
      ANTHROPIC_BASE_URL: server.url,
      ...spec.env,
    };
    // In a cgroup: a shell moves itself there, then becomes the CLI.
    const [command, args] = spec.cgroup
      ? ["/bin/sh", ["-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', spec.cgroup, process.execPath, ...cliArgs]]
      : [process.execPath, cliArgs];
    const started = Date.now();
    try {
      const { code, stdout, stderr } = await spawnFor(command, args as string[], { env, cwd: spec.ws, timeoutMs: spec.timeoutMs ?? DEFAULT_TIMEOUT_MS, user: spec.user });
      return { code, stdout, stderr, requests: [...server.requests], ms: Date.now() - started };
    } finally {
      await server.close();
    }
  }
}

interface SpawnSpec {
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly user: RunSpec["user"];
}

function spawnFor(command: string, args: string[], { env, cwd, timeoutMs, user }: SpawnSpec): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"], ...(user ?? {}) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // A hung run fails its case instead of holding up the file.
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The line the CLI prints at start about the sandbox, or undefined. */
export function sandboxLine(stderr: string): string | undefined {
  return stderr.split("\n").find((line) => line.startsWith("Sandbox: "));
}

interface WireBlock {
  readonly type: string;
  readonly text?: string;
  readonly content?: string | readonly WireBlock[];
}

/** The text of the tool result the model got in request `index` (native tool calls, one per turn). */
export function toolResultIn(requests: readonly RecordedRequest[], index: number): string | undefined {
  const messages = (requests[index]?.body.messages ?? []) as { role: string; content: string | WireBlock[] }[];
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return undefined;
  const block = last.content.find((b) => b.type === "tool_result");
  if (!block) return undefined;
  return typeof block.content === "string" ? block.content : (block.content ?? []).map((b) => b.text ?? "").join("\n");
}
