import type { ContentBlock, ImageBlock, TextBlock } from "../../api/types";
import type { CutOff } from "../assistant-message/types";
import { formatResponse } from "../prompts/responses";
import { errorText } from "../util/error-text";
import { imageBlockFromDataUrl } from "../util/image-block";
import { decideApproval } from "./auto-approval";
import type { CallRefusal, CallWatch } from "./participant";
import { runToolCall, type Approver, type ToolCall } from "./tool-call";
import type { TaskScope } from "./task-scope";
import type { TaskState } from "./task-state";
import { EditPreviews } from "./tools/edit-preview";
import { readParams } from "./tools/params";
import { getTool } from "./tools/registry";
import { ToolError, type ApprovalDecision, type ApprovalRequest, type Feedback, type RawParams, type ToolContext, type ToolDefinition, type ToolResult } from "./tools/types";

/**
 * Runs the model's tool calls: the one place every call passes through. It reads the parameters
 * by the tool's schema, applies the auto-approval policy and asks, answers a rejection, gives the
 * model the note typed with "Approve", enforces "one XML tool per answer" and "nothing after a
 * rejection", counts mistakes, and turns every outcome into the next round's user content. The
 * participants join each call where participant.ts says (resolveCall, callArrived, callStarting,
 * callSettled).
 */
export class ToolExecutor {
  /** Edit previews outlive a call (they open while it streams): the task's, until it is disposed. */
  private readonly previews: EditPreviews;

  constructor(
    private readonly scope: TaskScope,
    private readonly tools: Readonly<Record<string, ToolDefinition>>,
  ) {
    this.previews = new EditPreviews((message) => scope.host.window.notify("error", message));
  }

  /** The task is over: previews of calls that never ran are reverted. Never rejects. */
  dispose(): Promise<void> {
    return this.previews.dispose();
  }

  async executeTool(named: ToolCall): Promise<void> {
    const { participants } = this.scope;
    const call = named.id !== undefined && !named.partial ? participants.resolveCall(named) : named;
    try {
      await this.runCall(call);
    } finally {
      if (!call.partial && !this.scope.signal.aborted) await participants.callSettled(call);
    }
  }

  private async runCall(call: ToolCall): Promise<void> {
    const { state, participants } = this.scope;
    if (state.didRejectTool) {
      if (!call.partial) await this.settle(call, formatResponse.toolSkippedAfterRejection(call.name));
      return;
    }
    if (state.didAlreadyUseTool && call.id === undefined) {
      if (!call.partial) await this.settle(call, formatResponse.onlyOneToolPerMessage());
      return;
    }
    const tool = getTool(call.name, this.tools);
    if (call.partial) {
      // A call a participant refuses shows no preview: nothing of it may reach the workspace.
      if (tool?.presentPartial && !(await participants.callArrived({ call, tool }))) await tool.presentPartial(call.params, this.context());
      return;
    }
    await this.scope.withStateLock(() => (state.didAlreadyUseTool = true));
    const refusal = await participants.callArrived({ call, tool });
    if (refusal?.kind === "held") return this.settle(call, refusal.text);
    if (!tool) return this.modelMistake(call, formatResponse.unknownTool(call.name));
    if (refusal) {
      // A preview shown before the refusal (the person switched modes meanwhile) is taken back.
      await tool.abandon?.(call.params, this.context());
      if (refusal.refusedIn) return this.refusedByMode(call, refusal.text, refusal.refusedIn);
      return this.modelMistake(call, refusal.text);
    }
    if (call.cutOff && !mayRunCutOff(tool, call.params, call.cutOff)) return this.refuseCutOff(tool, call, call.cutOff);
    if (call.params.__invalid_arguments !== undefined) {
      return this.modelMistake(call, formatResponse.invalidToolArguments(call.name, call.params.__invalid_arguments));
    }
    await this.runModelCall(tool, call);
  }

  /** A complete call the model may make: the participants' start, the steps (tool-call.ts), how it ended, its result settled. */
  private async runModelCall(tool: ToolDefinition, call: ToolCall): Promise<void> {
    let result: ToolResult;
    let watch: CallWatch | undefined;
    try {
      const params = await readParams(tool, call.params, this.scope.roots);
      watch = await this.scope.participants.callStarting({ name: call.name, params: call.params, tool, nested: false });
      if (watch.blocked) return await this.blocked(tool, call, watch, watch.blocked);
      result = await runToolCall(tool, params, this.context(), (request) => this.approve(request));
    } catch (error) {
      if (this.scope.signal.aborted) return;
      const message = errorText(error);
      await watch?.ended?.({ failed: message });
      if (error instanceof ToolError) return this.modelMistake(call, message);
      await this.scope.say("error", `${call.name} failed: ${message}`);
      return this.settle(call, formatResponse.toolError(message));
    }
    if (!this.scope.signal.aborted) await watch.ended?.(result);
    await this.applyResult(call, result);
  }

  /** A participant blocked the call: nothing is prepared, asked or run; its streamed preview is taken back and its row says why. Not a model mistake. */
  private async blocked(tool: ToolDefinition, call: ToolCall, watch: CallWatch, why: NonNullable<CallWatch["blocked"]>): Promise<void> {
    await tool.abandon?.(call.params, this.context());
    const path = call.params.path;
    await this.scope.say("tool", why.row, { tool: { tool: call.name, ...(path ? { path } : {}), blocked: true } });
    await watch.showRows?.();
    await this.settle(call, why.forModel, undefined, true);
  }

  private applyResult(call: ToolCall, result: ToolResult): Promise<void> {
    switch (result.kind) {
      case "ok":
        return this.settle(call, result.content, (state) => (state.consecutiveMistakeCount = 0), result.isError);
      case "rejected":
        return this.settle(call, this.feedbackContent(formatResponse.toolDenied(), result.feedback), (state) => (state.didRejectTool = true));
      case "task_completed":
        return this.settle(call, result.accepted === "plan" ? "The person approved the plan. It is carried out once they switch to Act mode." : "The person accepted the result.", (state) => {
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
    await tool.abandon?.(call.params, this.context());
    const path = call.params.path;
    const shown = { tool: call.name, ...(path ? { path } : {}), ...(call.params.content !== undefined ? { content: call.params.content } : {}), cutOff: true };
    await this.scope.say("tool", CUT_OFF_ROW_TEXT, { tool: shown });
    await this.settle(call, formatResponse.toolCutOff(call.name, cutOff), (state) => state.consecutiveMistakeCount++);
  }

  /**
   * The mode does not run this call: the model reads why (a mistake it counts, like any), and the
   * person sees the call's row, not run, with the mode's note: not an error, nothing went wrong.
   */
  private async refusedByMode(call: ToolCall, text: string, refused: NonNullable<CallRefusal["refusedIn"]>): Promise<void> {
    const path = call.params.path;
    const shown = getTool(call.name, this.tools)?.shownWhenNotRun?.(call.params, this.context());
    await this.scope.say("tool", refused.note, { tool: { tool: call.name, ...(path ? { path } : {}), ...shown, refusedIn: refused.mode } });
    await this.settle(call, formatResponse.toolError(text), (state) => state.consecutiveMistakeCount++);
  }

  private async modelMistake(call: ToolCall, message: string): Promise<void> {
    await this.scope.say("error", message);
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
    const { state } = this.scope;
    return this.scope.withStateLock(() => {
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
    const { scope } = this;
    return {
      ...scope.participants.lent,
      roots: scope.roots,
      ignore: scope.guard,
      host: scope.host,
      signal: scope.signal,
      background: scope.background,
      commands: scope.commands,
      previews: this.previews,
      mode: () => scope.mode.current,
      ask: (kind, text, extra) => scope.ask(kind, text, extra),
      say: (kind, text, extra) => scope.say(kind, text, extra).then(() => undefined),
      callTool: (name, params, options) => this.callTool(name, params, options?.shownAs),
      withMentions: (text) => scope.forModel(text),
      keepWhole: (name, text) => scope.keepWhole(name, text),
    };
  }

  /** A tool run by another (or for a mention): the same steps; its outcome goes to the caller, not to the model. */
  async callTool(name: string, raw: RawParams, shownAs?: string): Promise<ToolResult> {
    const tool = getTool(name, this.tools);
    if (!tool) throw new Error(`There is no tool ${name} to run.`);
    const approve: Approver = (request) => this.approve(shownAs ? { ...request, message: { ...request.message, tool: shownAs } } : request);
    const params = await readParams(tool, raw, this.scope.roots);
    const watch = await this.scope.participants.callStarting({ name, params: raw, tool, nested: true });
    if (watch.blocked) {
      await watch.showRows?.();
      return { kind: "rejected", feedback: { text: watch.blocked.forModel } };
    }
    let result: ToolResult;
    try {
      result = await runToolCall(tool, params, this.context(), approve);
    } catch (error) {
      await watch.ended?.({ failed: errorText(error) });
      throw error;
    }
    await watch.ended?.(result);
    return result;
  }

  /** The policy's verdict; the person's answer when it asks them. */
  private async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const { scope } = this;
    const kind = request.category === "command" ? "command" : "tool";
    const verdict = await decideApproval(request, scope.settings(), { roots: scope.roots.paths, ignore: scope.guard, sandbox: scope.commands.sandbox });
    if (verdict.verdict === "deny") {
      const text = `Tandem's command guard refused to run this command: ${verdict.reason}`;
      await scope.say("error", `${text}\n${request.command ?? ""}`);
      return { approved: false, feedback: { text: `${text} Do not try to get around the guard; find a safer way or ask the person.` } };
    }
    if (verdict.verdict === "auto") {
      await scope.say(kind, request.command, { tool: request.message });
      return { approved: true };
    }
    // The question is the command (or the tool row); why Tandem asks travels beside it, for the row to show.
    const why = verdict.note ? { why: verdict.note, ...(verdict.always ? { alwaysAsks: true } : {}) } : {};
    const answer = await scope.ask(kind, request.command ?? "", { tool: { ...request.message, ...why } });
    const feedback = answer.text || answer.images?.length ? { text: answer.text, images: answer.images } : undefined;
    if (feedback) await scope.say("user_feedback", feedback.text, { images: feedback.images });
    // The chat keeps what was typed; the model also gets what its @-mentions stand for.
    return { approved: answer.type === "yes", feedback: feedback && { ...feedback, text: await scope.forModel(feedback.text) } };
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
