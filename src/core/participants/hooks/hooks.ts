/**
 * The hooks' places in the loop (core/hooks runs them; this says when):
 * - `beginning`: UserPromptSubmit with the task's text, then TaskStart, before the first request;
 *   TaskResume once the person chose to go on with a saved task. A cancel ends the task before
 *   any request (and TaskCancel does not run: nothing had begun).
 * - `answerReceived`: UserPromptSubmit for every message the person types in answer to a
 *   question. A cancel withholds the message: the question is asked again.
 * - `callStarting`: PreToolUse and, once the call has ended, PostToolUse, on the executor's one
 *   path for calls (MCP tools and a tool's own calls included).
 * - `taskCompleted`: TaskComplete once the person accepted the result.
 * - `cancelled`: whether TaskCancel must run was decided before the abort flag was set (after it,
 *   a cancelled task and a finished one look alike: `wasFinished`); running hooks are killed,
 *   and only then TaskCancel runs. It runs at most once, never after completion.
 * - `mayShorten`: PreCompact before the conversation is shortened; false when a hook cancelled.
 * - Notification: whenever the task notifies (the notifications participant calls the lent
 *   `notificationHook`). It runs beside the task, which never waits for it; a task's dispose waits
 *   for the runs still going (each bounded by the hooks' timeout), and a cancel kills them, unless
 *   the task had already ended (its last notification must still go out).
 * Every contextModification goes to the model with the next request (`beforeRequest`).
 */
import type { AskResponse } from "../../../shared/messages";
import type { Notice } from "../../../shared/notice";
import type { TaskHooks, HookOutcome } from "../../hooks/task-hooks";
import { formatResponse } from "../../prompts/responses";
import type { CallWatch, LentServices, RequestDraft, ShortenReason, StartingCall, TaskBeginning, TaskParticipant } from "../../task/participant";
import type { AbortReason } from "../../task/task-state";
import type { ToolResult } from "../../task/tools/types";

/** A tool result as long as this goes to PostToolUse whole; longer ones are cut (the hook gets the start). */
const MAX_RESULT_FOR_HOOK = 64 * 1024;

export class HooksInLoop implements TaskParticipant {
  readonly name = "hooks";
  readonly lends: LentServices = { notificationHook: (notice) => this.notification(notice) };
  private began = false;
  private completed = false;
  /** Notification hooks still running. */
  private readonly notifying = new Set<Promise<void>>();

  constructor(private readonly hooks: TaskHooks) {}

  /** The process ids of the hooks this task started. */
  get pids(): readonly number[] {
    return this.hooks.pids;
  }

  async beginning(start: TaskBeginning): Promise<string | undefined> {
    const stop = start.kind === "new" ? await this.taskStart(start.text, start.images) : await this.taskResume(start.reply, start.wasCompleted);
    return stop === undefined ? undefined : `A hook stopped the task: ${stop}`;
  }

  /** The person's message may go on unless a hook withheld it (the model is told). */
  async answerReceived(response: AskResponse): Promise<"go_on" | "ask_again"> {
    const prompt = response.text?.trim() ?? "";
    const images = response.images?.length ?? 0;
    if (!prompt && images === 0) return "go_on";
    const outcome = await this.hooks.run("UserPromptSubmit", { prompt: response.text ?? "", images });
    if (outcome.cancel === undefined) return "go_on";
    this.hooks.addContext(`A UserPromptSubmit hook withheld a message the person typed: ${outcome.cancel}`);
    return "ask_again";
  }

  async beforeRequest(draft: RequestDraft): Promise<undefined> {
    const context = this.hooks.takeContext();
    if (context !== undefined) draft.add(context);
    return undefined;
  }

  async callStarting({ name, params: parameters }: StartingCall): Promise<CallWatch> {
    const params = { ...parameters };
    const started = Date.now();
    const pre: HookOutcome = await this.hooks.run("PreToolUse", { toolName: name, parameters: params }, { deferRows: true });
    return {
      ...(pre.cancel !== undefined ? { blocked: { row: `Blocked by a PreToolUse hook: ${pre.cancel}`, forModel: formatResponse.toolBlockedByHook(name, pre.cancel) } } : {}),
      showRows: () => pre.show(),
      ended: async (result) => {
        await pre.show();
        const { text, success } = describeResult(result);
        const post = await this.hooks.run("PostToolUse", { toolName: name, parameters: params, result: text, success, executionTimeMs: Date.now() - started });
        // The call has run: a cancel cannot undo it, so its reason goes to the model.
        if (post.cancel) this.hooks.addContext(`A PostToolUse hook objected to the ${name} call that just ran: ${post.cancel}`);
      },
    };
  }

  async taskCompleted(result: string): Promise<void> {
    this.completed = true;
    await this.hooks.run("TaskComplete", { result });
  }

  async cancelled({ reason, wasFinished }: { readonly reason: AbortReason; readonly wasFinished: boolean }): Promise<void> {
    const wanted = this.began && !this.completed && !wasFinished;
    // A finished task runs no hook but its last Notification, which must not be cut off.
    if (!wasFinished) this.hooks.cancelRunning();
    if (!wanted) return;
    this.completed = true;
    await this.hooks.run("TaskCancel", { reason });
  }

  /** The task's last notifications go out before it is let go. */
  async dispose(): Promise<void> {
    await Promise.all(this.notifying);
  }

  /** Before the conversation is shortened: false when a hook cancelled it. */
  async mayShorten(reason: ShortenReason, messages: number): Promise<boolean> {
    return (await this.hooks.run("PreCompact", { reason, messages })).cancel === undefined;
  }

  private notification({ event, kind, message, task }: Notice): void {
    // run() says a hook's failure in the chat; only saying it can fail, once the chat is closed.
    const run = this.hooks.run("Notification", { event, kind, message, task }).then(
      () => undefined,
      () => undefined,
    );
    this.notifying.add(run);
    void run.finally(() => this.notifying.delete(run));
  }

  private async taskStart(prompt: string, images: number): Promise<string | undefined> {
    const submitted = await this.hooks.run("UserPromptSubmit", { prompt, images });
    if (submitted.cancel) return submitted.cancel;
    const started = await this.hooks.run("TaskStart", { prompt, images });
    this.began = started.cancel === undefined;
    return started.cancel;
  }

  private async taskResume(prompt: string, wasCompleted: boolean): Promise<string | undefined> {
    const resumed = await this.hooks.run("TaskResume", { prompt, wasCompleted });
    this.began = resumed.cancel === undefined;
    return resumed.cancel;
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
