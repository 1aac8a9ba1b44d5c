/**
 * A ToolContext for tests: a real temp workspace, scripted answers to approvals and asks, and a
 * record of everything the tool said or asked. Our own interface, so a fake is honest here.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BackgroundCommands } from "../../src/core/task/background-commands";
import type { ApprovalDecision, ApprovalRequest, ToolContext } from "../../src/core/task/tools/types";
import { TaskCommands } from "../../src/core/sandbox/task-commands";
import { NodeHost } from "../../src/host/node/node-host";
import type { AskKind, AskResponse, SayKind, ToolMessageInfo } from "../../src/shared/messages";

export interface FakeContextLog {
  readonly approvals: ApprovalRequest[];
  readonly asks: { kind: AskKind; text: string; options?: string[] }[];
  readonly says: { kind: SayKind; text?: string; tool?: ToolMessageInfo; partial?: boolean }[];
}

export interface FakeContextScript {
  /** Which paths count as ignored (default: none). */
  ignored?: (absolutePath: string) => boolean;
  /** Answers to approval requests, in order; once used up, everything is approved. */
  approvals?: ApprovalDecision[];
  /** Answers to asks, in order; running out is a test bug and throws. */
  answers?: AskResponse[];
  signal?: AbortSignal;
  /** The host's ripgrep (see HostBridge.ripgrep); default: rg on PATH. */
  ripgrep?: string | false;
}

export function fakeToolContext(cwd: string, script: FakeContextScript = {}): { ctx: ToolContext; log: FakeContextLog } {
  const log: FakeContextLog = { approvals: [], asks: [], says: [] };
  const approvals = [...(script.approvals ?? [])];
  const answers = [...(script.answers ?? [])];
  const ignore = { isIgnored: (absolutePath: string) => script.ignored?.(absolutePath) ?? false };
  const host = new NodeHost(cwd, { ripgrep: script.ripgrep });
  const ctx: ToolContext = {
    cwd,
    ignore,
    host,
    commands: new TaskCommands(host.terminal, undefined, [cwd], ignore),
    signal: script.signal ?? new AbortController().signal,
    background: new BackgroundCommands(),
    requestApproval(request) {
      log.approvals.push(request);
      return Promise.resolve(approvals.shift() ?? { approved: true });
    },
    ask(kind, text, extra) {
      log.asks.push({ kind, text, ...(extra?.options ? { options: extra.options } : {}) });
      const answer = answers.shift();
      if (answer) return Promise.resolve(answer);
      const withdraw = extra?.withdraw;
      // An unanswered question the tool may take back: it stays open until withdrawn.
      if (withdraw) return new Promise<AskResponse>((resolve) => withdraw.addEventListener("abort", () => resolve({ type: "no" }), { once: true }));
      return Promise.reject(new Error(`No scripted answer for ask "${kind}"`));
    },
    say(kind, text, extra) {
      log.says.push({ kind, text, tool: extra?.tool, partial: extra?.partial });
      return Promise.resolve();
    },
  };
  return { ctx, log };
}

/** A fresh temp folder (realpath'd, since macOS's tmpdir is itself a symlink) and its cleanup. */
export async function tempDir(prefix = "tandem-tools-"): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
