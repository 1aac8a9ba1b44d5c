/**
 * The contract every tool implements. A tool declares its parameters and what it needs approved;
 * the executor reads the parameters, asks, handles a rejection and hands the person's note to the
 * model, so a tool only checks, shows and acts. It gets a narrow context (never the Task).
 */
import type { ImageBlock, TextBlock } from "../../../api/types";
import type { HostBridge, TerminalShell } from "../../../host/bridge";
import type { AskKind, AskResponse, SayKind, ToolMessageInfo } from "../../../shared/messages";
import type { CommandRunInfo } from "../../../shared/command-run";
import type { BackgroundCommands } from "../background-commands";
import type { CommandRunner } from "../../sandbox/task-commands";
import type { PathGuard } from "../../ignore/path-guard";
import type { McpServers } from "../../mcp/servers";
import type { SkillShelf } from "../../skills/task-skills";
import type { AgentMode } from "../../../shared/settings";
import type { WorkspaceRoots } from "../../util/workspace-roots";

export type { PathGuard } from "../../ignore/path-guard";
import type { EditPreviews } from "./edit-preview";
import type { ParamSpec, ParamValues } from "./params";

export { ToolError } from "../../files/tool-error";

/** Which auto-approval setting governs a tool. */
export type ApprovalCategory = "read" | "edit" | "command" | "browser" | "mcp" | "none";

/** What a tool wants approved; the executor decides whether the person must be asked. */
export interface ToolApproval {
  /** What the chat shows (and the person approves). */
  readonly message: ToolMessageInfo;
  /**
   * Absolute paths the tool touches, as named and (for links) where they really land
   * (`touchedPaths`). An edit naming one of the guard's own files always asks.
   */
  readonly paths?: readonly string[];
  /** For commands: the command line. */
  readonly command?: string;
  /** For commands: the model's own judgement whether this one needs the person's approval. */
  readonly requiresApproval?: boolean;
  /** For commands: the shell that will run it, as the host reports it (the policy reads the line as that shell would). */
  readonly shell?: TerminalShell;
  /** For commands: the model asks to run it outside the OS sandbox (`sandbox="off"`). */
  readonly outsideSandbox?: boolean;
  /** The tool's own configuration lets it run unasked (an MCP tool in its server's `autoApprove` list). */
  readonly allowedByConfig?: boolean;
  /**
   * A URL on this machine or its private network the tool would reach (web_fetch), and why that
   * matters: only the person may allow it, even in YOLO, unless they listed its host.
   */
  readonly localHost?: { readonly url: string; readonly note: string };
}

/** A tool's approval as the policy judges it: with the category its definition declares. */
export interface ApprovalRequest extends ToolApproval {
  readonly category: ApprovalCategory;
}

/** What the person typed (or attached) with their answer. */
export interface Feedback {
  readonly text?: string;
  readonly images?: string[];
}

export interface ApprovalDecision {
  readonly approved: boolean;
  readonly feedback?: Feedback;
}


export interface ToolContext {
  /** The workspace's folders: paths resolve in them (the primary's is where commands start), and are shown as they say. */
  readonly roots: WorkspaceRoots;
  readonly ignore: PathGuard;
  readonly host: HostBridge;
  /** Aborted when the task is cancelled; pass it to anything slow. */
  readonly signal: AbortSignal;
  /** Commands left running in the background: their later output reaches the model (execute_command). */
  readonly background: BackgroundCommands;
  /** Runs commands: through the host's terminal, inside the OS sandbox when it is active. */
  readonly commands: CommandRunner;
  /** The editor's previews of this task's edits (`edit-preview.ts`); the task disposes them. */
  readonly previews: EditPreviews;
  /** The MCP servers (use_mcp_tool, access_mcp_resource); none when the session has no hub. */
  readonly mcp?: McpServers;
  /** The task's skills (use_skill); none when no participant lends them. */
  readonly skills?: SkillShelf;
  /** Which reads the conversation holds (read_file); none: every read goes out in full. */
  readonly reads?: ReadRecord;
  /** The task's Plan/Act mode as it is now (the person may switch while a tool waits). */
  mode(): AgentMode;
  /**
   * Asks the person. When `withdraw` aborts before an answer (e.g. the command finished first),
   * the question is taken back from the chat and the promise resolves `{ type: "no" }`.
   */
  ask(kind: AskKind, text: string, extra?: { options?: string[]; tool?: ToolMessageInfo; withdraw?: AbortSignal }): Promise<AskResponse>;
  say(kind: SayKind, text?: string, extra?: { tool?: ToolMessageInfo; partial?: boolean; images?: string[]; command?: CommandRunInfo }): Promise<void>;
  /**
   * Runs another tool as part of this one (attempt_completion's command), through every step a
   * call of the model's passes through; `shownAs` names this tool on its approval question.
   */
  callTool(name: string, params: RawParams, options?: { shownAs?: string }): Promise<ToolResult>;
  /** What the person typed (an answer, feedback), followed by what its @-mentions stand for; for the model, not the chat. */
  withMentions(text: string | undefined): Promise<string | undefined>;
  /** Keeps a whole result the model gets only part of, for the person (a file of the task's); undefined where the task is not saved. */
  keepWhole(name: string, text: string): Promise<string | undefined>;
}

/**
 * What read_file tells the task's read ledger (context/read-ledger.ts) before it returns `text`:
 * the round of an identical earlier read still in the conversation (answer short), or undefined.
 */
export interface ReadRecord {
  willReturn(read: { file: string; start: number; end: number; shown: string }, text: string): { readonly round: number } | undefined;
  /** The round of the read whose copy of `text` (that file, that range) is still in the conversation, if one is. */
  holds(read: { file: string; start: number; end: number }, text: string): { readonly round: number } | undefined;
}

/** Parameters as the model wrote them (complete or still streaming). */
export type RawParams = Readonly<Record<string, string>>;

/** What a tool hands back; the executor turns it into the model's tool result. */
export type ToolResult =
  /** Success: content for the model; `isError` when what ran reported a failure the model should read as one (an MCP tool's isError). */
  | { readonly kind: "ok"; content: string | (TextBlock | ImageBlock)[]; isError?: boolean }
  /** The person said no (to the approval, or to the tool's own question); their feedback goes to the model. */
  | { readonly kind: "rejected"; feedback?: Feedback }
  /** attempt_completion (or a plan) accepted by the person: the task loop ends; `accepted` says what, for the model. */
  | { readonly kind: "task_completed"; readonly accepted?: "plan" }
  /** new_task accepted: this task ends and a fresh one starts with `context` as its prompt. */
  | { readonly kind: "new_task"; context: string }
  /** attempt_completion answered with feedback: the loop goes on with it. */
  | { readonly kind: "completion_feedback"; feedback: Feedback };


/** A call checked and ready: what the person must approve, and what to do once they have. */
export interface PreparedCall {
  /** Required unless the tool's category is "none". */
  readonly approval?: ToolApproval;
  /** Does the work, once approved. */
  run(): Promise<ToolResult>;
  /** The call will not run (rejected, refused, cancelled while asking): take back what preparing showed. */
  discard?(): Promise<void>;
}

export interface ToolDefinition<S extends readonly ParamSpec[] = readonly ParamSpec[]> {
  readonly name: string;
  /** The model-facing description (system prompt). */
  readonly description: string;
  /** Read and checked by the executor (`params.ts`) before `prepare` sees them. */
  readonly params: S;
  /** Read-only tools may run while the initial checkpoint is still being made. */
  readonly readOnly: boolean;
  /** Which auto-approval switch governs the tool; "none": it never asks for approval. */
  readonly approval: ApprovalCategory;
  /** The modes the tool is offered (and runs) in; default both. A tool that is not read-only runs in Plan mode only per `isReadOnlyCall`. */
  readonly modes?: readonly AgentMode[];
  /** For a tool that is not read-only as a whole: whether this call only reads (an MCP tool its server marks read-only), so Plan mode runs it. */
  isReadOnlyCall?(params: RawParams, ctx: Pick<ToolContext, "mcp">): boolean;
  /** What the row of a call that does not run (refused by the mode) shows of it, beyond its name and path: an MCP call's server and tool. */
  shownWhenNotRun?(params: RawParams, ctx: Pick<ToolContext, "mcp">): Partial<ToolMessageInfo>;
  /** An example call for the system prompt, in the XML format. */
  readonly example?: string;
  /**
   * A harmless read that may still run when the answer was cut off inside its call, provided
   * every required parameter had closed (`<path>…</path>` complete). Everything else that was
   * cut off is never run: a cut-short file or command would do damage.
   */
  readonly runsWhenCutOff?: boolean;
  /**
   * Called while the block is still streaming, to show a live preview (params may be cut short).
   * Must not ask the person anything.
   */
  presentPartial?(params: RawParams, ctx: ToolContext): Promise<void>;
  /** The call will never run (it was cut off): take back what presentPartial showed. */
  abandon?(params: RawParams, ctx: ToolContext): Promise<void>;
  /**
   * Everything before the question: checks (a thrown ToolError is the model's mistake), what the
   * person will be shown, and the action to run once they approve.
   */
  prepare(params: ParamValues<S>, ctx: ToolContext): Promise<PreparedCall>;
}

/** A tool definition with its parameters' types inferred from its `params`. */
export function defineTool<const S extends readonly ParamSpec[]>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}
