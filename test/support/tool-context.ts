/**
 * A ToolContext for tests: a real temp workspace, scripted answers to approvals and asks, and a
 * record of everything the tool said or asked. `runTool` takes a call through the same steps as
 * the executor (params read by the tool's schema, prepare, approval, run, the person's note), so a
 * tool's tests see what the model would. Our own interface, so a fake is honest here.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BackgroundCommands } from "../../src/core/task/background-commands";
import { runToolCall } from "../../src/core/task/tool-call";
import { EditPreviews } from "../../src/core/task/tools/edit-preview";
import { readParams } from "../../src/core/task/tools/params";
import { getTool } from "../../src/core/task/tools/registry";
import type { ApprovalDecision, ApprovalRequest, RawParams, ToolContext, ToolDefinition, ToolResult } from "../../src/core/task/tools/types";
import { TaskCommands } from "../../src/core/sandbox/task-commands";
import { NodeHost } from "../../src/host/node/node-host";
import { WorkspaceRoots } from "../../src/core/util/workspace-roots";
import type { CommandRunInfo } from "../../src/shared/command-run";
import type { AskKind, AskResponse, SayKind, ToolMessageInfo } from "../../src/shared/messages";

export interface FakeContextLog {
  readonly approvals: ApprovalRequest[];
  readonly asks: { kind: AskKind; text: string; options?: string[] }[];
  readonly says: { kind: SayKind; text?: string; tool?: ToolMessageInfo; partial?: boolean; command?: CommandRunInfo }[];
  /** What the previews could not undo (the executor notifies the person). */
  readonly notices: string[];
}

export interface FakeContextScript {
  /** Which paths count as ignored (default: none). */
  ignored?: (absolutePath: string) => boolean;
  /** Which ignore file refuses a path (PathGuard.ignoredBy); default: none named. */
  ignoredBy?: (absolutePath: string) => string | undefined;
  /** Answers to approval requests, in order; once used up, everything is approved. */
  approvals?: ApprovalDecision[];
  /** Answers to asks, in order; running out is a test bug and throws. */
  answers?: AskResponse[];
  signal?: AbortSignal;
  /** The host's ripgrep (see HostBridge.ripgrep); default: rg on PATH. */
  ripgrep?: string | false;
  /** More workspace folders after `cwd`, the primary (named after their folders). */
  extraRoots?: readonly string[];
  /** The task's Plan/Act mode the tool sees (default Act). */
  mode?: "plan" | "act";
}

/** The context, and the scripted approver the executor's policy stands in for. */
export interface FakeToolContext extends ToolContext {
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
}

export function fakeToolContext(cwd: string, script: FakeContextScript = {}): { ctx: FakeToolContext; log: FakeContextLog } {
  const log: FakeContextLog = { approvals: [], asks: [], says: [], notices: [] };
  const approvals = [...(script.approvals ?? [])];
  const answers = [...(script.answers ?? [])];
  const ignore = { isIgnored: (absolutePath: string) => script.ignored?.(absolutePath) ?? false, ignoredBy: (absolutePath: string) => script.ignoredBy?.(absolutePath) };
  const host = new NodeHost(cwd, { ripgrep: script.ripgrep, ...(script.extraRoots ? { extraRoots: script.extraRoots } : {}) });
  const roots = WorkspaceRoots.of(host.workspace.roots);
  const ctx: FakeToolContext = {
    roots,
    ignore,
    host,
    commands: new TaskCommands(host.terminal, undefined, roots.paths, ignore),
    signal: script.signal ?? new AbortController().signal,
    background: new BackgroundCommands(),
    mode: () => script.mode ?? "act",
    previews: new EditPreviews((message) => log.notices.push(message)),
    keepWhole: () => Promise.resolve(undefined),
    approve(request) {
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
      log.says.push({ kind, text, tool: extra?.tool, partial: extra?.partial, ...(extra?.command ? { command: extra.command } : {}) });
      return Promise.resolve();
    },
    // Mentions are the Task's (test/core/mentions.test.ts); a tool alone passes the text on as typed.
    withMentions: (text) => Promise.resolve(text),
    callTool(name, params, options) {
      const shownAs = options?.shownAs;
      const approve = (request: ApprovalRequest) => ctx.approve(shownAs ? { ...request, message: { ...request.message, tool: shownAs } } : request);
      return runTool(registered(name), params, { ...ctx, approve });
    },
  };
  return { ctx, log };
}

/** One call of `tool` with the model's text for its params, as the executor runs it (errors thrown). */
export async function runTool(tool: ToolDefinition, params: RawParams, ctx: FakeToolContext): Promise<ToolResult> {
  return runToolCall(tool, await readParams(tool, params, ctx.roots), ctx, (request) => ctx.approve(request));
}

function registered(name: string): ToolDefinition {
  const tool = getTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** A fresh temp folder (realpath'd, since macOS's tmpdir is itself a symlink) and its cleanup. */
export async function tempDir(prefix = "tandem-tools-"): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
