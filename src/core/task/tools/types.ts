/**
 * The contract every tool handler implements. A tool gets a narrow context (never the Task):
 * the workspace, an abort signal, and the three ways to talk to the person.
 */
import type { ImageBlock, TextBlock } from "../../../api/types";
import type { HostBridge, TerminalShell } from "../../../host/bridge";
import type { AskKind, AskResponse, SayKind, ToolMessageInfo } from "../../../shared/messages";
import type { BackgroundCommands } from "../background-commands";
import type { CommandRunner } from "../../sandbox/task-commands";

/** Which auto-approval setting governs a tool. */
export type ApprovalCategory = "read" | "edit" | "command" | "browser" | "mcp" | "none";

export interface ToolParamSpec {
  readonly name: string;
  readonly required: boolean;
  /** One line for the system prompt. */
  readonly description: string;
}

/** What a tool wants approved; the executor decides whether the person must be asked. */
export interface ApprovalRequest {
  readonly category: ApprovalCategory;
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
}

export type ApprovalDecision =
  | { readonly approved: true; feedback?: { text?: string; images?: string[] } }
  | { readonly approved: false; feedback?: { text?: string; images?: string[] } };

/** Which paths tools may touch: the ignore file (.tandemignore/.clineignore) and secret files. */
export interface PathGuard {
  /** True when tools must not read, write or list this path (the real guard also judges where its links lead). */
  isIgnored(absolutePath: string): boolean;
}

export interface ToolContext {
  /** The workspace root: relative paths resolve against it. */
  readonly cwd: string;
  readonly ignore: PathGuard;
  readonly host: HostBridge;
  /** Aborted when the task is cancelled; pass it to anything slow. */
  readonly signal: AbortSignal;
  /** Commands left running in the background: their later output reaches the model (execute_command). */
  readonly background: BackgroundCommands;
  /** Runs commands: through the host's terminal, inside the OS sandbox when it is active. */
  readonly commands: CommandRunner;
  requestApproval(request: ApprovalRequest): Promise<ApprovalDecision>;
  /**
   * Asks the person. When `withdraw` aborts before an answer (e.g. the command finished first),
   * the question is taken back from the chat and the promise resolves `{ type: "no" }`.
   */
  ask(kind: AskKind, text: string, extra?: { options?: string[]; tool?: ToolMessageInfo; withdraw?: AbortSignal }): Promise<AskResponse>;
  say(kind: SayKind, text?: string, extra?: { tool?: ToolMessageInfo; partial?: boolean; images?: string[] }): Promise<void>;
}

/** What a tool hands back; the executor turns it into the model's tool result. */
export type ToolResult =
  /** Success: content for the model. */
  | { readonly kind: "ok"; content: string | (TextBlock | ImageBlock)[] }
  /** The person declined; their feedback (if any) goes to the model. */
  | { readonly kind: "rejected"; feedback?: { text?: string; images?: string[] } }
  /** attempt_completion accepted by the person: the task loop ends. */
  | { readonly kind: "task_completed" }
  /** new_task accepted: this task ends and a fresh one starts with `context` as its prompt. */
  | { readonly kind: "new_task"; context: string }
  /** attempt_completion answered with feedback: the loop goes on with it. */
  | { readonly kind: "completion_feedback"; feedback: { text?: string; images?: string[] } };

/**
 * A mistake the model made (missing parameter, file not found, no match). It goes back to the
 * model as a tool error and counts toward the mistake limit.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(
    readonly reason: "missing_param" | "invalid_param" | "not_found" | "not_allowed" | "failed",
    message: string,
  ) {
    super(message);
  }
}

export interface ToolDefinition {
  readonly name: string;
  /** The model-facing description (system prompt). */
  readonly description: string;
  readonly params: readonly ToolParamSpec[];
  /** Read-only tools may run while the initial checkpoint is still being made. */
  readonly readOnly: boolean;
  readonly approval: ApprovalCategory;
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
  presentPartial?(params: Readonly<Record<string, string>>, ctx: ToolContext): Promise<void>;
  /** The call will never run (it was cut off): take back what presentPartial showed. */
  abandon?(params: Readonly<Record<string, string>>, ctx: ToolContext): Promise<void>;
  /** Runs the complete call. Required params are already checked by the executor. */
  execute(params: Readonly<Record<string, string>>, ctx: ToolContext): Promise<ToolResult>;
}
