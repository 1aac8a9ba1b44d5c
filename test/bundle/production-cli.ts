/**
 * The CLI bundle that `npm run package` ships (built once per run by
 * test/support/bundles.global-setup.ts), run as a person runs it: its own process, talking to the scripted model server (in the
 * test's process). Each run gets only its own model requests back, to check what the model saw.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The model requests of this run, in order. */
  readonly requests: RecordedRequest[];
}

export interface RunOptions {
  readonly cwd: string;
  /** Extra arguments before the task (after --yolo --cwd). */
  readonly args?: readonly string[];
  /** PATH for the CLI (default: the test's own). */
  readonly path?: string;
  /** false: without --yolo, so only the auto-approve switches in `args` approve anything. */
  readonly yolo?: boolean;
}

/** A hung CLI fails its own test instead of holding up the file. */
const RUN_TIMEOUT_MS = 30_000;

export class ProductionCli {
  private constructor(
    private readonly cliPath: string,
    private readonly home: string,
    private readonly server: ScriptedModelServer,
    private readonly serverUrl: string,
  ) {}

  /** Starts the scripted model server for the CLI bundle in `bundleDir`; HOME is `home`. */
  static async start(bundleDir: string, home: string): Promise<ProductionCli> {
    const server = await startScriptedModelServer();
    return new ProductionCli(join(bundleDir, "cli.js"), home, server, server.url);
  }

  /** Runs one task (in YOLO mode unless `options.yolo` is false) with the model answering `turns`, one per request. */
  async run(task: string, turns: readonly ScriptTurn[], options: RunOptions): Promise<CliRun> {
    const before = (await this.requests()).length;
    await this.control("POST", JSON.stringify(turns));
    const args = [this.cliPath, ...(options.yolo === false ? [] : ["--yolo"]), "--cwd", options.cwd, ...(options.args ?? []), task];
    const env = { PATH: options.path ?? process.env.PATH ?? "", HOME: this.home, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: this.serverUrl };
    const result = await new Promise<Omit<CliRun, "requests">>((resolve) => {
      const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    // Turns a failed run did not use must not answer the next run.
    await this.control("DELETE");
    return { ...result, requests: (await this.requests()).slice(before) };
  }

  stop(): Promise<void> {
    return this.server.close();
  }

  private async requests(): Promise<RecordedRequest[]> {
    return (await (await fetch(`${this.serverUrl}/__requests`)).json()) as RecordedRequest[];
  }

  private async control(method: "POST" | "DELETE", body?: string): Promise<void> {
    const response = await fetch(`${this.serverUrl}/__script`, { method, body });
    if (!response.ok) throw new Error(`${method} /__script: ${response.status} ${await response.text()}`);
  }
}

interface RecordedMessage {
  readonly role: string;
  readonly content: string | readonly { readonly type: string; readonly text?: string }[];
}

/** The text of a request's messages (Anthropic's wire format), one string per message. */
export function messageTexts(request: RecordedRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as RecordedMessage[];
  return messages.map((message) =>
    typeof message.content === "string" ? message.content : message.content.map((block) => block.text ?? `[${block.type}]`).join("\n"),
  );
}

/**
 * What the model got back for each tool call of a run: with one call per turn, the result of
 * turn i is the last message of request i + 1.
 */
export function toolResults(run: CliRun): string[] {
  // The environment details that end each message are not the tool's (and carry the time).
  return run.requests.slice(1).map((request) => (messageTexts(request).at(-1) ?? "").replace(/\n?<environment_details>\n[\s\S]*<\/environment_details>$/, ""));
}

/** A turn that calls one tool in the XML format, every tag closed. */
export function toolCall(tool: string, params: Readonly<Record<string, string>>): ScriptTurn {
  const body = Object.entries(params)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join("\n");
  return { text: `<${tool}>\n${body}\n</${tool}>` };
}

export const COMPLETE: ScriptTurn = toolCall("attempt_completion", { result: "Done." });
