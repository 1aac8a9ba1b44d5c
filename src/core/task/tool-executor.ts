import type { ContentBlock, ImageBlock, TextBlock } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { AskKind, AskResponse, SayKind, ToolMessageInfo } from "../../shared/messages";
import type { AgentSettings } from "../../shared/settings";
import type { CutOff, ToolUse } from "../assistant-message/types";
import { formatResponse } from "../prompts/responses";
import { decideApproval } from "./auto-approval";
import type { BackgroundCommands } from "./background-commands";
import type { CommandRunner } from "../sandbox/task-commands";
import type { TaskState } from "./task-state";
import { ToolError, type ApprovalDecision, type ApprovalRequest, type Feedback, type PathGuard, type RawParams, type ToolContext, type ToolDefinition, type ToolResult } from "./tools/types";
import { errorText } from "../util/error-text";
import { getTool } from "./tools/registry";
import { readParams } from "./tools/params";
import { EditPreviews } from "./tools/edit-preview";
import { runToolCall, type Approver } from "./tool-call";
import { imageBlockFromDataUrl } from "../util/image-block";
import type { McpServers } from "./task-params";
import type { ToolGate, ToolHooks } from "../hooks";
import type { FocusChain } from "./focus-chain";
import { TASK_PROGRESS } from "./focus-chain-prompt";
import type { ReadRecord } from "./tools/types";
import { modeRefusal, type AgentMode } from "./mode";

/** A complete or partial tool call; native calls carry the provider's id and their arguments as sent (`input`). */
export type ToolCall = ToolUse & { id?: string; input?: Record<string, unknown> };

export interface ToolExecutorDeps {
  readonly tools: Readonly<Record<string, ToolDefinition>>;
  readonly cwd: string;
  readonly host: HostBridge;
  readonly signal: AbortSignal;
  readonly background: BackgroundCommands;
  readonly commands: CommandRunner;
  readonly state: TaskState;
  readonly ignore: PathGuard;
  settings(): AgentSettings;
  ask(kind: AskKind, text: string, extra?: { options?: string[]; tool?: ToolMessageInfo }): Promise<AskResponse>;
  say(kind: SayKind, text?: string, extra?: { tool?: ToolMessageInfo; partial?: boolean; images?: string[] }): Promise<void>;
  /** The Task's state lock: every change the executor makes to the round's state goes through it. */
  withStateLock<T>(fn: () => T): Promise<T>;
  /** What a tool that is not read-only waits for first: the task's initial checkpoint. */
  beforeChange?(): Promise<void> | undefined;
  /** The MCP servers, for the MCP tools; none without a hub. */
  readonly mcp?: McpServers;
  /** A native call of a name that stands for another call (an MCP tool's function → use_mcp_tool); undefined: as it is. */
  aliasCall?(call: ToolCall): ToolCall | undefined;
  /** PreToolUse and PostToolUse around every call; none: no hooks. */
  readonly hooks?: ToolHooks;
  /** What the person typed, followed by what its @-mentions stand for (core/context/mentions.ts). */
  withMentions(text: string | undefined): Promise<string | undefined>;
  /** The task's checklist (focus-chain.ts): each call's task_progress, and the hold on a completion with open items. */
  readonly focusChain?: Pick<FocusChain, "fromModel" | "holdCompletion" | "editMark">;
  /** The task's record of file reads in the conversation (read_file); none: every read goes out in full. */
  readonly reads?: ReadRecord;
  /** The task's Plan/Act mode now (none: Act). */
  mode?(): AgentMode;
}

/**
 * Runs the model's tool calls: the one place every call passes through. It reads the parameters
 * by the tool's schema, applies the auto-approval policy and asks, answers a rejection, gives the
 * model the note typed with "Approve", enforces "one XML tool per answer" and "nothing after a
 * rejection", counts mistakes, and turns every outcome into the next round's user content.
 */
export class ToolExecutor {
  /** Edit previews outlive a call (they open while it streams): the task's, until it is disposed. */
  private readonly previews: EditPreviews;
  /** The checklist of a call whose preview row is open: it is taken once the call is over (checklistFirst). */
  private deferredChecklist: { text: string; mark: number } | undefined;

  constructor(private readonly deps: ToolExecutorDeps) {
    this.previews = new EditPreviews((message) => deps.host.window.notify("error", message));
  }

  /** The task is over: previews of calls that never ran are reverted. Never rejects. */
  dispose(): Promise<void> {
    return this.previews.dispose();
  }

  async executeTool(named: ToolCall): Promise<void> {
    try {
      await this.runCall(named);
    } finally {
      await this.takeDeferredChecklist();
    }
  }

  private async runCall(named: ToolCall): Promise<void> {
    const { state } = this.deps;
    const call = (named.id !== undefined && !named.partial && this.deps.aliasCall?.(named)) || named;
    const native = call.id !== undefined;
    if (state.didRejectTool) {
      if (!call.partial) await this.settle(call, formatResponse.toolSkippedAfterRejection(call.name));
      return;
    }
    if (state.didAlreadyUseTool && !native) {
      if (!call.partial) await this.settle(call, formatResponse.onlyOneToolPerMessage());
      return;
    }
    const tool = getTool(call.name, this.deps.tools);
    if (call.partial) {
      // A call the mode refuses shows no preview: nothing of it may reach the workspace.
      if (!tool?.presentPartial) return;
      const ctx = this.context();
      if (!this.modeRefusal(tool, call, ctx)) await tool.presentPartial(call.params, ctx);
      return;
    }
    await this.deps.withStateLock(() => (state.didAlreadyUseTool = true));
    const held = await this.checklistFirst(call, tool);
    if (held) return this.settle(call, held);
    if (!tool) return this.modelMistake(call, formatResponse.unknownTool(call.name));
    const refusal = this.modeRefusal(tool, call);
    if (refusal) {
      // A preview shown before the person switched modes is taken back.
      await tool.abandon?.(call.params, this.context());
      return this.modelMistake(call, refusal);
    }
    if (call.cutOff && !mayRunCutOff(tool, call.params, call.cutOff)) return this.refuseCutOff(tool, call, call.cutOff);
    if (call.params.__invalid_arguments !== undefined) {
      return this.modelMistake(call, formatResponse.invalidToolArguments(call.name, call.params.__invalid_arguments));
    }
    await this.runModelCall(tool, call);
  }

  /** A complete call the model may make: PreToolUse, the steps (tool-call.ts), PostToolUse, and its result settled. */
  private async runModelCall(tool: ToolDefinition, call: ToolCall): Promise<void> {
    let result: ToolResult;
    let gate: ToolGate | undefined;
    try {
      const params = await readParams(tool, call.params, this.deps.cwd);
      gate = await this.deps.hooks?.beforeTool(call.name, call.params);
      if (gate?.blocked !== undefined) return await this.blockedByHook(tool, call, gate);
      if (!tool.readOnly) await this.deps.beforeChange?.();
      result = await runToolCall(tool, params, this.context(), (request) => this.approve(request));
    } catch (error) {
      if (this.deps.signal.aborted) return;
      const message = errorText(error);
      await gate?.done({ failed: message });
      if (error instanceof ToolError) return this.modelMistake(call, message);
      await this.deps.say("error", `${call.name} failed: ${message}`);
      return this.settle(call, formatResponse.toolError(message));
    }
    if (!this.deps.signal.aborted) await gate?.done(result);
    await this.applyResult(call, result);
  }

  /**
   * A PreToolUse hook said no: nothing is prepared, asked or run. The call's streamed preview is
   * taken back and its row says so; the model hears the hook's reason. Not a model mistake.
   */
  private async blockedByHook(tool: ToolDefinition, call: ToolCall, gate: ToolGate): Promise<void> {
    await tool.abandon?.(call.params, this.context());
    const path = call.params.path;
    await this.deps.say("tool", `Blocked by a PreToolUse hook: ${gate.blocked}`, { tool: { tool: call.name, ...(path ? { path } : {}), blocked: true } });
    await gate.showRows();
    await this.settle(call, formatResponse.toolBlockedByHook(call.name, gate.blocked ?? ""), undefined, true);
  }

  /**
   * The call's checklist, whatever becomes of the call (a cut-off call's list may be cut too);
   * then, for attempt_completion, what the model hears instead while items are open (held once).
   */
  private async checklistFirst(call: ToolCall, tool: ToolDefinition | undefined): Promise<string | undefined> {
    const chain = this.deps.focusChain;
    const text = call.params[TASK_PROGRESS];
    if (!chain || call.cutOff) return undefined;
    // A streamed preview row becomes the call's question next: a checklist row now would come between.
    if (text !== undefined && tool?.presentPartial) this.deferredChecklist = { text, mark: chain.editMark };
    else await chain.fromModel(text);
    return tool?.name === "attempt_completion" ? chain.holdCompletion() : undefined;
  }

  /** The deferred checklist, unless the task was cancelled meanwhile (an edit by the person meanwhile wins: FocusChain.fromModel). */
  private async takeDeferredChecklist(): Promise<void> {
    const deferred = this.deferredChecklist;
    this.deferredChecklist = undefined;
    if (deferred && !this.deps.signal.aborted) await this.deps.focusChain?.fromModel(deferred.text, deferred.mark);
  }

  /** Plan mode runs only what reads; Act mode all but plan_mode_respond (`task/mode.ts`). */
  private modeRefusal(tool: ToolDefinition, call: ToolCall, ctx = this.context()): string | undefined {
    return modeRefusal(tool, call.params, this.deps.mode?.() ?? "act", ctx);
  }

  private applyResult(call: ToolCall, result: ToolResult): Promise<void> {
    switch (result.kind) {
      case "ok":
        return this.settle(call, result.content, (state) => (state.consecutiveMistakeCount = 0), result.isError);
      case "rejected":
        return this.settle(call, this.feedbackContent(formatResponse.toolDenied(), result.feedback), (state) => (state.didRejectTool = true));
      case "task_completed":
        return this.settle(call, "The person accepted the result.", (state) => {
          state.consecutiveMistakeCount = 0;
          state.taskEnd = { kind: "completed" };
        });
      case "new_task":
        return this.settle(call, "The person started a new task with this context.", (state) => {
          state.consecutiveMistakeCount = 0;
          state.taskEnd = { kind: "handed_off", context: result.context };
        });
      case "completion_feedback":
        return this.settle(call, this.feedbackContent(formatResponse.completionFeedback(), result.feedback), (state) => (state.consecutiveMistakeCount = 0));
    }
  }

  /**
   * The answer ended inside this call: nothing is written or run. Its preview row (if it streamed
   * one) becomes the row that says so, and the model learns why. It counts as a mistake, so an
   * answer that keeps hitting the output limit cannot loop for ever.
   */
  private async refuseCutOff(tool: ToolDefinition, call: ToolCall, cutOff: CutOff): Promise<void> {
    const ctx = this.context();
    await tool.abandon?.(call.params, ctx);
    const path = call.params.path;
    const shown = { tool: call.name, ...(path ? { path } : {}), ...(call.params.content !== undefined ? { content: call.params.content } : {}), cutOff: true };
    await this.deps.say("tool", CUT_OFF_ROW_TEXT, { tool: shown });
    await this.settle(call, formatResponse.toolCutOff(call.name, cutOff), (state) => state.consecutiveMistakeCount++);
  }

  private async modelMistake(call: ToolCall, message: string): Promise<void> {
    await this.deps.say("error", message);
    await this.settle(call, formatResponse.toolError(message), (state) => state.consecutiveMistakeCount++);
  }

  private feedbackContent(lead: string, feedback?: Feedback): (TextBlock | ImageBlock)[] {
    const blocks: (TextBlock | ImageBlock)[] = [{ type: "text", text: lead }];
    if (feedback?.text) blocks.push({ type: "text", text: `<feedback>\n${feedback.text}\n</feedback>` });
    for (const image of feedback?.images ?? []) blocks.push(imageBlockFromDataUrl(image));
    return blocks;
  }

  /**
   * How a call ended, in one step under the state lock: its result joins the next round's user
   * content (XML calls as text blocks, native calls as a tool_result for their id), and `change`
   * records what it means for the round (a rejection, the task's end, the mistake count).
   */
  private settle(call: ToolCall, content: string | (TextBlock | ImageBlock)[], change?: (state: TaskState) => void, isError = false): Promise<void> {
    const { state } = this.deps;
    return this.deps.withStateLock(() => {
      change?.(state);
      const out = state.userMessageContent;
      if (call.id !== undefined) {
        out.push({ type: "tool_result", toolUseId: call.id, content, ...(isError ? { isError } : {}) });
        return;
      }
      out.push({ type: "text", text: `[${describeCall(call)}] Result:` });
      if (typeof content === "string") out.push({ type: "text", text: content });
      else out.push(...(content as ContentBlock[]));
    });
  }

  private context(): ToolContext {
    const { deps } = this;
    return {
      cwd: deps.cwd,
      ignore: deps.ignore,
      host: deps.host,
      signal: deps.signal,
      background: deps.background,
      commands: deps.commands,
      previews: this.previews,
      ...(deps.mcp ? { mcp: deps.mcp } : {}),
      ...(deps.reads ? { reads: deps.reads } : {}),
      mode: () => deps.mode?.() ?? "act",
      ask: (kind, text, extra) => deps.ask(kind, text, extra),
      say: (kind, text, extra) => deps.say(kind, text, extra),
      callTool: (name, params, options) => this.callTool(name, params, options?.shownAs),
      withMentions: (text) => deps.withMentions(text),
    };
  }

  /** A tool run by another: the same steps; its outcome goes to the tool that ran it, not to the model. */
  async callTool(name: string, raw: RawParams, shownAs?: string): Promise<ToolResult> {
    const tool = getTool(name, this.deps.tools);
    if (!tool) throw new Error(`There is no tool ${name} to run.`);
    const approve: Approver = (request) => this.approve(shownAs ? { ...request, message: { ...request.message, tool: shownAs } } : request);
    const params = await readParams(tool, raw, this.deps.cwd);
    const gate = await this.deps.hooks?.beforeTool(name, raw);
    if (gate?.blocked !== undefined) {
      await gate.showRows();
      return { kind: "rejected", feedback: { text: formatResponse.toolBlockedByHook(name, gate.blocked) } };
    }
    let result: ToolResult;
    try {
      result = await runToolCall(tool, params, this.context(), approve);
    } catch (error) {
      await gate?.done({ failed: errorText(error) });
      throw error;
    }
    await gate?.done(result);
    return result;
  }

  /** The policy's verdict; the person's answer when it asks them. */
  private async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const { deps } = this;
    const kind = request.category === "command" ? "command" : "tool";
    const verdict = await decideApproval(request, deps.settings(), { cwd: deps.cwd, ignore: deps.ignore, sandbox: deps.commands.sandbox });
    if (verdict.verdict === "deny") {
      const text = `Tandem's command guard refused to run this command: ${verdict.reason}`;
      await deps.say("error", `${text}\n${request.command ?? ""}`);
      return { approved: false, feedback: { text: `${text} Do not try to get around the guard; find a safer way or ask the person.` } };
    }
    if (verdict.verdict === "auto") {
      await deps.say(kind, request.command, { tool: request.message });
      return { approved: true };
    }
    // The question is the command (or the tool row); why Tandem asks travels beside it, for the row to show.
    const why = verdict.note ? { why: verdict.note, ...(verdict.always ? { alwaysAsks: true } : {}) } : {};
    const answer = await deps.ask(kind, request.command ?? "", { tool: { ...request.message, ...why } });
    const feedback = answer.text || answer.images?.length ? { text: answer.text, images: answer.images } : undefined;
    if (feedback) await deps.say("user_feedback", feedback.text, { images: feedback.images });
    // The chat keeps what was typed; the model also gets what its @-mentions stand for.
    return { approved: answer.type === "yes", feedback: feedback && { ...feedback, text: await deps.withMentions(feedback.text) } };
  }
}

/** What the chat row of a cut-off call says. */
export const CUT_OFF_ROW_TEXT = "Cut off before the tool call ended, not run.";

/** A harmless read still runs when all its required parameters closed before the answer ended. */
function mayRunCutOff(tool: ToolDefinition, params: RawParams, cutOff: CutOff): boolean {
  if (!tool.runsWhenCutOff || cutOff.incompleteArguments) return false;
  return tool.params.every((p) => !p.required || (p.name !== cutOff.unclosedParam && params[p.name]?.trim()));
}

function describeCall(call: ToolCall): string {
  const target = call.params.path ?? call.params.command ?? call.params.url;
  return target ? `${call.name} for '${target}'` : call.name;
}
