/**
 * The one door into the loop. A capability (hooks, MCP, rules, the focus chain, Plan/Act, the
 * environment details, the context window, checkpoints, the mistake limit, the person's text)
 * joins a task as a participant: an object with the moments it takes part in, each optional.
 * The Controller's assembly (controller/task-assembly.ts) lists the participants in one array;
 * at every moment the Task calls them in that order (participants.ts). The Task names none of
 * them, and nothing under core/task imports one.
 *
 * The moments, in the order a task meets them:
 *   opened → beginning → [ beforeRequest → historyReady → systemPrompt, offeredTools, toolSpecs
 *   → (the answer streams) resolveCall, callArrived, callStarting, callSettled → roundDone ]…
 *   → taskCompleted | cancelled → ended → dispose
 * and whenever they happen: personWords (the person's text for the model), questionShown (a
 * question waits for the person), answerReceived (the person answered a question), mayShorten
 * and overflowed (the conversation must shrink).
 */
import type { ToolSpec } from "../../api/types";
import type { AskMessage, AskResponse, ChatMessage } from "../../shared/messages";
import type { Notice } from "../../shared/notice";
import type { AgentMode, ToolCallMode } from "../../shared/settings";
import type { McpServers } from "../mcp/servers";
import type { SkillShelf } from "../skills/task-skills";
import type { RequestDraft } from "./request-draft";
import type { TaskEnded, TaskOutcome } from "./round-outcome";
import type { ToolCall } from "./tool-call";
import type { AbortReason } from "./task-state";
import type { ToolSet } from "./tools/registry";
import type { RawParams, ReadRecord, ToolDefinition, ToolResult } from "./tools/types";

export type { RequestDraft } from "./request-draft";

export interface TaskParticipant {
  /** Names it where it fails, and in the test of the door. */
  readonly name: string;
  /** Parameters every tool call may carry for this participant (the focus chain's task_progress): the parser keeps them, no tool sees them. */
  readonly callParams?: readonly string[];
  /** What it lends the tools (their ToolContext): the context window's record of reads, the MCP servers. */
  readonly lends?: LentServices;

  /** The task opened: new (its first row shown), or resumed (its saved chat loaded). */
  opened?(opening: TaskOpening): Promise<void>;
  /** The work begins: a new task's first request, or a resumed task the person chose to go on with. A text stops the task there, shown as an error. */
  beginning?(start: TaskBeginning): Promise<string | undefined>;

  /** The person's words on their way to the model (the task, a reply, feedback): expanded in turn, the chat keeps them as typed. */
  personWords?(words: PersonWords): Promise<PersonWords>;
  /**
   * A question's row is shown and the task waits for the person's answer. Must not wait (it is
   * called as the row is shown): work that takes time is started here and finished by `dispose`.
   */
  questionShown?(row: AskMessage): void;
  /** The person answered a question: "ask_again" takes the answer here (a /compact) or withholds it (a hook), and the question is asked again. */
  answerReceived?(answer: AskResponse): Promise<"go_on" | "ask_again">;

  /** Before a request: add to its user content, or end the round (the mistake limit). */
  beforeRequest?(draft: RequestDraft): Promise<TaskEnded | undefined>;
  /** The round's content is in the history and its request comes next: the conversation may be shortened here. */
  historyReady?(): Promise<void>;
  /** Sections of this request's system prompt, after the base prompt. The same text for the same facts, so the prompt stays byte-identical. */
  systemPrompt?(request: PromptRequest): Promise<readonly string[]> | readonly string[];
  /** The tools the model is offered for this request (prompt and native specs). */
  offeredTools?(tools: ToolSet, mode: AgentMode): ToolSet;
  /** The native tool specs of this request. */
  toolSpecs?(specs: readonly ToolSpec[]): readonly ToolSpec[];
  /** The provider refused the request as too long: shorten the conversation. True when it did (the request goes again). */
  overflowed?(): Promise<boolean>;
  /** The conversation is about to be shortened (condensed or truncated): false keeps it whole. */
  mayShorten?(reason: ShortenReason, messages: number): Promise<boolean>;

  /** A native call whose name stands for another call (an MCP function for use_mcp_tool). */
  resolveCall?(call: ToolCall): ToolCall | undefined;
  /** A call arrived, before it is checked: still streaming (a refusal shows no preview) or complete. */
  callArrived?(arrived: ArrivedCall): Promise<CallRefusal | undefined> | CallRefusal | undefined;
  /** A call with its parameters read, about to be prepared, asked about and run (a tool's own call too): it may be blocked, and its watcher hears how it ended. */
  callStarting?(call: StartingCall): Promise<CallWatch | undefined>;
  /** A complete call of the model's is over, whatever became of it. */
  callSettled?(call: ToolCall): Promise<void>;
  /** The round's answer was presented and its tools ran; the next round comes next. */
  roundDone?(round: number): Promise<void>;

  /** The person accepted the task's result. */
  taskCompleted?(result: string): Promise<void>;
  /** The task was cancelled (its signal has aborted). `wasFinished`: it had ended before. */
  cancelled?(cancel: { readonly reason: AbortReason; readonly wasFinished: boolean }): Promise<void>;
  /** The task ended, however (after `taskCompleted`); as `questionShown`, it must not wait. */
  ended?(outcome: TaskOutcome): void;
  /** The task is over for good: release what it holds. Must not reject. */
  dispose?(): Promise<void> | void;
}

/** What participants lend the tools (and the other participants, through the scope). */
export interface LentServices {
  readonly reads?: ReadRecord;
  readonly mcp?: McpServers;
  /** The files that differ from the workspace as the task found it (the checkpoints), workspace-relative. */
  readonly changes?: { sinceStart(): Promise<readonly string[]> };
  /** Runs the Notification hooks for a notification the task makes (the hooks); it does not wait for them. */
  readonly notificationHook?: (notice: Notice) => void;
  /** The task's skills, found once (the skills participant): use_skill reads them. */
  readonly skills?: SkillShelf;
}

export type TaskOpening = { readonly kind: "new" } | { readonly kind: "resumed"; readonly chat: readonly ChatMessage[] };

export type TaskBeginning =
  | { readonly kind: "new"; readonly text: string; readonly images: number }
  | { readonly kind: "resumed"; readonly reply: string; readonly wasCompleted: boolean };

/** The person's text for the model (undefined: they typed nothing) and the blocks that follow it. */
export interface PersonWords {
  readonly text: string | undefined;
  readonly blocks: readonly string[];
}

export interface PromptRequest {
  readonly mode: AgentMode;
  readonly toolCallMode: ToolCallMode;
}

export type ShortenReason = "condense" | "compact" | "truncate" | "context_window_exceeded";

export interface ArrivedCall {
  readonly call: ToolCall;
  /** Undefined for a tool that does not exist (the executor answers that itself). */
  readonly tool: ToolDefinition | undefined;
}

/**
 * Why a call does not run, in the model's words. "mistake": its preview is taken back, the chat
 * shows the text as an error (or, given `refusedIn`, the call's row says calmly that the mode does
 * not run it) and it counts as a mistake; "held": the participant said what the person should
 * know, and the model just reads the text.
 */
export interface CallRefusal {
  readonly kind: "mistake" | "held";
  readonly text: string;
  /** The mode refused it: the chat shows the call's row, not run, with `note` (for the person), instead of the model's text as an error. */
  readonly refusedIn?: { readonly mode: AgentMode; readonly note: string };
}

export interface StartingCall {
  readonly name: string;
  readonly params: RawParams;
  readonly tool: ToolDefinition;
  /** Run by another tool (attempt_completion's command, a mention's web_fetch), not by the model. */
  readonly nested: boolean;
}

export interface CallWatch {
  /** The call must not run: what its row says and what the model hears. */
  readonly blocked?: { readonly row: string; readonly forModel: string };
  /** Rows the participant kept back until the call's own row was shown. */
  showRows?(): Promise<void>;
  /** The call ended: its result, or why it failed. Not called when the task was cancelled meanwhile. */
  ended?(outcome: ToolResult | { readonly failed: string }): Promise<void>;
}
