/**
 * The hooks' places in the Task (each call there is a line or two):
 * - `taskStart`: UserPromptSubmit with the task's text, then TaskStart, in startTask before
 *   initiateTaskLoop; `taskResume`: TaskResume in resumeTask once the person chose to go on.
 *   A cancel ends the task before any request (and TaskCancel does not run: nothing had begun).
 * - `userReply`: UserPromptSubmit for every message the person types in answer to a question.
 *   A cancel withholds the message: the question is asked again.
 * - `beforeTool`: PreToolUse and, once the call has ended, PostToolUse, on the ToolExecutor's one
 *   path for calls (MCP tools and a tool's own calls included).
 * - `taskComplete`: TaskComplete once the person accepted the result.
 * - `cancelWanted` / `taskCancel`: abortTask's phases. Whether TaskCancel must run is decided
 *   before the abort flag is set (after it, a cancelled task and a finished one look alike); then
 *   the flag, then running hooks are killed, and only then TaskCancel runs. It runs at most once,
 *   never after completion.
 * - `preCompact`: PreCompact before the conversation is shortened; false when a hook cancelled.
 *   (The context-window truncation calls it; condensing calls it the same way.)
 * Every contextModification goes to the model with the next request (`takeContext`).
 */
import type { AskResponse } from "../../shared/messages";
import type { ToolResult } from "../task/tools/types";
import { TaskHooks, type HookOutcome, type TaskHooksDeps } from "./task-hooks";

/** What a PreToolUse run leaves the executor: why the call is blocked, or what to do once it ended. */
export interface ToolGate {
  readonly blocked?: string;
  /** The PreToolUse rows, shown under the call's own row. */
  showRows(): Promise<void>;
  /** After the call: its PreToolUse rows, then PostToolUse with how it ended. */
  done(result: ToolResult | { readonly failed: string }): Promise<void>;
}

/** What the ToolExecutor asks of the hooks. */
export interface ToolHooks {
  beforeTool(toolName: string, parameters: Readonly<Record<string, string>>): Promise<ToolGate>;
}

/** A tool result as long as this goes to PostToolUse whole; longer ones are cut (the hook gets the start). */
const MAX_RESULT_FOR_HOOK = 64 * 1024;

export class HooksInLoop implements ToolHooks {
  private readonly hooks: TaskHooks;
  private began = false;
  private completed = false;

  constructor(deps: TaskHooksDeps) {
    this.hooks = new TaskHooks(deps);
  }

  /** The process ids of the hooks this task started. */
  get pids(): readonly number[] {
    return this.hooks.pids;
  }

  /** Undefined to go on; otherwise why a hook stopped the task. */
  async taskStart(prompt: string, images: number): Promise<string | undefined> {
    const submitted = await this.hooks.run("UserPromptSubmit", { prompt, images });
    if (submitted.cancel) return submitted.cancel;
    const started = await this.hooks.run("TaskStart", { prompt, images });
    this.began = started.cancel === undefined;
    return started.cancel;
  }

  async taskResume(prompt: string, wasCompleted: boolean): Promise<string | undefined> {
    const resumed = await this.hooks.run("TaskResume", { prompt, wasCompleted });
    this.began = resumed.cancel === undefined;
    return resumed.cancel;
  }

  /** True when the person's message may go on; false when a hook withheld it (the model is told). */
  async userReply(response: AskResponse): Promise<boolean> {
    const prompt = response.text?.trim() ?? "";
    const images = response.images?.length ?? 0;
    if (!prompt && images === 0) return true;
    const outcome = await this.hooks.run("UserPromptSubmit", { prompt: response.text ?? "", images });
    if (outcome.cancel) this.hooks.addContext(`A UserPromptSubmit hook withheld a message the person typed: ${outcome.cancel}`);
    return outcome.cancel === undefined;
  }

  async beforeTool(toolName: string, parameters: Readonly<Record<string, string>>): Promise<ToolGate> {
    const params = { ...parameters };
    const started = Date.now();
    const pre: HookOutcome = await this.hooks.run("PreToolUse", { toolName, parameters: params }, { deferRows: true });
    return {
      ...(pre.cancel !== undefined ? { blocked: pre.cancel } : {}),
      showRows: () => pre.show(),
      done: async (result) => {
        await pre.show();
        const { text, success } = describeResult(result);
        const post = await this.hooks.run("PostToolUse", { toolName, parameters: params, result: text, success, executionTimeMs: Date.now() - started });
        // The call has run: a cancel cannot undo it, so its reason goes to the model.
        if (post.cancel) this.hooks.addContext(`A PostToolUse hook objected to the ${toolName} call that just ran: ${post.cancel}`);
      },
    };
  }

  async taskComplete(result: string): Promise<void> {
    this.completed = true;
    await this.hooks.run("TaskComplete", { result });
  }

  /** abortTask's first phase: the task had begun and has not completed. */
  cancelWanted(): boolean {
    return this.began && !this.completed;
  }

  /** abortTask's third phase: hooks still running are killed. */
  cancelRunning(): void {
    this.hooks.cancelRunning();
  }

  /** abortTask's last phase. */
  async taskCancel(reason: "cancelled" | "shutdown"): Promise<void> {
    this.completed = true;
    await this.hooks.run("TaskCancel", { reason });
  }

  /** Before the conversation is shortened (truncation now, condensing too): false when a hook cancelled it. */
  async preCompact(reason: string, messages: number): Promise<boolean> {
    return (await this.hooks.run("PreCompact", { reason, messages })).cancel === undefined;
  }

  takeContext(): string | undefined {
    return this.hooks.takeContext();
  }
}

function describeResult(result: ToolResult | { readonly failed: string }): { text: string; success: boolean } {
  if ("failed" in result) return { text: result.failed, success: false };
  switch (result.kind) {
    case "ok": {
      const text = typeof result.content === "string" ? result.content : result.content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
      return { text: text.length > MAX_RESULT_FOR_HOOK ? `${text.slice(0, MAX_RESULT_FOR_HOOK)}\n…(cut for the hook)` : text, success: result.isError !== true };
    }
    case "rejected":
      return { text: `The person rejected the call.${result.feedback?.text ? ` Their feedback: ${result.feedback.text}` : ""}`, success: false };
    case "task_completed":
      return { text: "The person accepted the result.", success: true };
    case "new_task":
      return { text: "The person started a new task with this context.", success: true };
    case "completion_feedback":
      return { text: `The person replied to the result: ${result.feedback.text ?? ""}`, success: true };
  }
}
