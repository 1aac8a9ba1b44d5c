/**
 * Runs a security case end to end: the production CLI bundle as its own process, the real shell,
 * a fresh copy of the sandbox (HOME is its fake home, the workspace its cwd), and a scripted
 * hostile model of its own (one server per case, so cases can run side by side). Then it reads
 * what happened from the outside: the exit code, what the model was sent next, and the disk.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { RecordedRequest, ScriptTurn } from "../../support/script";
import { startScriptedModelServer } from "../../support/scripted-model-server";
import { productionCli } from "../../support/bundles";
import { cloneSandbox, diffSnapshots, makeLinks, snapshot, type Sandbox } from "./fixture";
import type { CaseResult, CliCase, Outcome } from "./types";

/** A hung run fails its case instead of holding up the corpus. */
const RUN_TIMEOUT_MS = 30_000;

/** No pyenv or cargo shims: they look for their tools under HOME, which is the fake one. */
const SYSTEM_PATH = [path.dirname(process.execPath), "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** What downloads fetch: scripts that leave a mark in HOME if they ever run. */
const PAYLOADS: Record<string, string> = {
  "/i.sh": 'touch "$HOME/pwned"\n',
  "/p.py": 'import os\nopen(os.path.expanduser("~/pwned"), "w").close()\n',
};

/** What the cases run for real: missing, a case could not show that the guard holds (zsh is macOS's default shell). */
export const REQUIRED_PROGRAMS = ["bash", "zsh", "git", "rg", "curl", "wget", "python3", "perl", "busybox", "rsync", "base64"] as const;

export function missingPrograms(): string[] {
  return REQUIRED_PROGRAMS.filter((name) => !SYSTEM_PATH.some((dir) => existsSync(path.join(dir, name))));
}

/** The words of a refusal: the command guard's, the ignore and secret-file guards'. */
const REFUSAL = /guard|refus|not allowed|may not|is ignored|secret file/i;

export interface CliRunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly requests: readonly RecordedRequest[];
}

export class CorpusCli {
  private constructor(
    private readonly dir: string,
    private readonly cliPath: string,
    private readonly noRipgrepBin: string,
    private readonly payloads: Server,
    private readonly payloadUrl: string,
  ) {}

  /** The production CLI bundle of this run, with its helpers in `dir`. */
  static async start(dir: string): Promise<CorpusCli> {
    const noRipgrepBin = path.join(dir, "bin-without-rg");
    await linkAllBut(noRipgrepBin, "/usr/bin", "rg");
    const payloads = createServer((req, res) => {
      const body = PAYLOADS[req.url ?? ""];
      res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/plain" }).end(body ?? "not found");
    });
    await new Promise<void>((resolve) => payloads.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(payloads.address() as AddressInfo).port}`;
    return new CorpusCli(dir, productionCli(), noRipgrepBin, payloads, url);
  }

  async runCase(c: CliCase, template: Sandbox, marker: string): Promise<CaseResult> {
    const box = await cloneSandbox(template, path.join(this.dir, "cases", c.id));
    try {
      if (c.links) await makeLinks(box, c.links);
      const before = await snapshot(box);
      const run = await this.runCli(c, box);
      const changes = diffSnapshots(before, await snapshot(box)).map((change) => `disk: ${change.replaceAll(box.root, "<sandbox>")}`);
      const leaks = run.requests.flatMap((request, i) => (JSON.stringify(request.body).includes(marker) ? [`the model was sent the secret marker (request ${i + 1})`] : []));
      const result = firstToolResult(run.requests);
      const observed = classify(run, result);
      const unseen = observed === "allowed" && c.mustSee && !result?.includes(c.mustSee) ? [`the result does not show "${c.mustSee}", so the call did not really run`] : [];
      return {
        id: c.id,
        observed,
        violations: [...leaks, ...changes, ...unseen],
        detail: `exit ${run.code}; tool result: ${clip(result ?? "(none)")}; stderr: ${clip(run.stderr.split("\n").filter((l) => !l.startsWith("  ")).join(" "))}`,
      };
    } finally {
      await rm(box.root, { recursive: true, force: true });
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.payloads.close(() => resolve()));
  }

  private async runCli(c: CliCase, box: Sandbox): Promise<CliRunResult> {
    const expand = (value: string) =>
      value.replaceAll("{url}", this.payloadUrl).replaceAll("{home}", box.home).replaceAll("{root}", box.root).replaceAll("{ws}", box.ws);
    const turns: ScriptTurn[] = c.calls.map((call, i) => ({
      ...(call.delayMs ? { text: "Next step.", chunkSize: 4, delayMs: call.delayMs } : {}),
      toolCalls: [{ id: `call_${i}`, name: call.tool, input: Object.fromEntries(Object.entries(call.params).map(([k, v]) => [k, expand(v)])) }],
    }));
    turns.push({ toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Done." } }] });
    const server = await startScriptedModelServer({ turns });
    // The guard alone, as where no sandbox exists: this corpus proves the guard holds on its own.
    const args = [this.cliPath, "--native-tools", "--no-storage", "--sandbox", "off", "--cwd", box.ws, ...(c.roots ? ["--root", box.web] : [])];
    if (c.mode.yolo) args.push("--yolo");
    if (c.mode.approve?.length) args.push("--auto-approve", c.mode.approve.join(","));
    args.push("Carry out the steps.");
    const env = {
      PATH: (c.noRipgrep ? [this.noRipgrepBin, "/usr/local/bin"] : SYSTEM_PATH).join(":"),
      HOME: box.home,
      SHELL: shellPath(c.shell ?? "bash"),
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.url,
    };
    try {
      const { code, stdout, stderr } = await spawnCli(args, env, box.ws);
      return { code, stdout, stderr, requests: [...server.requests] };
    } finally {
      await server.close();
    }
  }
}

function shellPath(shell: "bash" | "zsh"): string {
  const found = ["/usr/bin", "/bin"].map((dir) => path.join(dir, shell)).find((p) => existsSync(p));
  // A missing zsh makes the command fail to start: a misjudged case still shows as not refused.
  return found ?? `/bin/${shell}`;
}

function spawnCli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
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
}

/**
 * asked: the unattended CLI stopped at a question (exit 3 and its note). Otherwise the result of
 * the judged call, sent with the second request, says whether the guard refused it or it ran.
 */
export function classify(run: CliRunResult, result: string | undefined): Outcome | `other: ${string}` {
  if (run.code === 3 && run.stderr.includes("needs approval")) return "asked";
  if (run.code === null) return "other: timed out";
  if (result === undefined) return `other: exit ${run.code} before the call's result was sent`;
  const failed = /^(The tool failed|The person denied)/.test(result);
  if (failed && REFUSAL.test(result)) return "refused";
  if (failed) return `other: the call failed (${clip(result, 120)})`;
  return "allowed";
}

interface WireBlock {
  readonly type: string;
  readonly text?: string;
  readonly content?: string | readonly WireBlock[];
}

/** The text of the first tool result the model got (the judged call's: calls go one per turn). */
export function firstToolResult(requests: readonly RecordedRequest[]): string | undefined {
  const messages = (requests[1]?.body.messages ?? []) as { role: string; content: string | WireBlock[] }[];
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return undefined;
  const block = last.content.find((b) => b.type === "tool_result");
  if (!block) return undefined;
  return typeof block.content === "string" ? block.content : (block.content ?? []).map((b) => b.text ?? "").join("\n");
}

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A folder of links to every program in `from` except `except` (a PATH without ripgrep). */
async function linkAllBut(dir: string, from: string, except: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(from)) if (name !== except) await symlink(path.join(from, name), path.join(dir, name));
}
