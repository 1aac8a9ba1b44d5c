/**
 * The chat record: what the person sees of a task. Shared by the core and the webview,
 * so it holds plain data only (no runtime imports).
 */
import type { CommandConfinement, CommandEnd, CommandRunInfo } from "./command-run";
import type { FocusChainInfo } from "./focus-chain";
import type { AgentMode } from "./settings";

/** Questions the task puts to the person; each waits for an answer. */
export type AskKind =
  /** The model asks the person something (ask_followup_question). */
  | "followup"
  /** Approve a tool (edit, read, …); `tool` holds the details. */
  | "tool"
  /** Approve a shell command; `text` is the command. */
  | "command"
  /** A command is still running: proceed while it runs? */
  | "command_output"
  /** The model says the task is done; the person may reply to continue it. */
  | "completion_result"
  /** A request failed after the automatic retries: retry or stop. */
  | "api_req_failed"
  /** The model made too many mistakes in a row: continue (with guidance) or stop. */
  | "mistake_limit_reached"
  /** The task reached its cost or request cap: continue once, raise the cap, or stop. */
  | "spend_limit_reached"
  /** The model proposes to continue in a fresh task carrying this context. */
  | "new_task"
  /** An interrupted task can be resumed. */
  | "resume_task"
  /** Plan mode: the model presents its plan (or asks about it); `options` are answers to pick. */
  | "plan_mode_respond";

/** Reports from the task; none waits. */
export type SayKind =
  /** The person's task text (first message). */
  | "task"
  /** Model prose. */
  | "text"
  /** Model reasoning. */
  | "reasoning"
  /** One API request: tokens and cost in `apiRequest`. */
  | "api_req_started"
  /** Something the person must see went wrong. */
  | "error"
  /** A failed request is being retried automatically; `retry` holds attempt and delay. */
  | "error_retry"
  /** The conversation was shortened to fit the context window. */
  | "context_truncated"
  /** The conversation was summarised to fit the context window; `text` is the summary, `condense` the figures. */
  | "context_condensed"
  /** A tool ran (auto-approved or approved); `tool` holds the details. */
  | "tool"
  /** The person's answer or feedback, shown in the chat. */
  | "user_feedback"
  /** The final result of the task. */
  | "completion_result"
  /** A shell command (auto-approved) and its output. */
  | "command"
  | "command_output"
  /** Plain information (e.g. "task cancelled"). */
  | "info"
  /** A round changed files and the workspace was saved as a checkpoint; `checkpoint` says which. */
  | "checkpoint_created"
  /** "Restore task" took the chat back to here; `removedRequests` is what the requests it removed cost, kept in the totals. */
  | "checkpoint_restored"
  /** A hook ran (core/hooks); `hook` says which, how it ended and what it printed. */
  | "hook"
  /** The task's checklist changed (the model's task_progress, or the person's edit); `focusChain` holds it. */
  | "task_progress"
  /** The task was completed: what it touched (files written, commands run, hosts and MCP servers reached) in `ledger`. */
  | "task_ledger";

/** Details of a tool use shown in the chat. */
export interface ToolMessageInfo {
  tool: string;
  path?: string;
  /** Proposed file content, diff, or the tool's result, depending on the tool. */
  content?: string;
  /** True when the path lies outside the workspace. */
  outsideWorkspace?: boolean;
  /** A command the model asks to run outside the OS sandbox. */
  outsideSandbox?: boolean;
  /** execute_command: the confinement the command will run under (the command runner's rule), for its row. */
  confinement?: CommandConfinement;
  /** The answer ended inside this call, so it was not run (the row says so). */
  cutOff?: boolean;
  /** A PreToolUse hook blocked this call, so it was not run (the row says so). */
  blocked?: boolean;
  /** Why Tandem asks about this one (a guard file, a secret it names, a path outside the workspace). */
  why?: string;
  /** Asked whatever the auto-approval switches and YOLO say: no setting lets it through unasked. */
  alwaysAsks?: boolean;
  /**
   * use_mcp_tool / access_mcp_resource: the server and the tool (with its description from the
   * server's list) or resource; the arguments are `content`. `result`: what the call returned, on the
   * row said after it ran.
   */
  mcp?: { server: string; tool?: string; uri?: string; description?: string; result?: McpResultView };
  /** The task's mode does not run this call (a write in Plan mode): not run; `text` says so for the person. */
  refusedIn?: AgentMode;
}

/**
 * What an MCP tool or resource returned, shaped for the panel and bounded (the model's copy is
 * bounded apart): text, images as data URLs, embedded resources, links; `omitted` says what the
 * panel left out.
 */
export interface McpResultView {
  /** The tool said it failed (MCP's isError): the call ran, the tool reports an error. */
  isError?: boolean;
  parts: McpResultPart[];
  /** What the panel left out to stay small (e.g. "12,000 characters, 1 image"); the model may have had more. */
  omitted?: string;
  /** The model got the result cut to size: the whole text is kept in this file of the task's, for the person. */
  whole?: { readonly path: string; readonly chars: number };
}

export type McpResultPart =
  | { readonly type: "text"; text: string }
  | { readonly type: "image"; dataUrl: string; mimeType: string }
  | { readonly type: "resource"; uri: string; mimeType?: string; text: string }
  | { readonly type: "resource_link"; uri: string; name: string; description?: string; mimeType?: string };

/**
 * A point the task can go back to: the workspace as it was (a commit of the checkpoint store) and
 * how much of the conversation the model had then. The task's first row carries the workspace as
 * the task found it; each `checkpoint_created` row the workspace after that round's tools ran.
 */
export interface CheckpointInfo {
  hash: string;
  /** API messages kept by "restore task": up to the round's tool results. */
  apiMessages: number;
}

/** One run of a hook, for its chat row. */
export interface HookRunInfo {
  /** The hook point (PreToolUse, TaskStart, …). */
  point: string;
  /** The hook file as found. */
  path: string;
  source: "global" | "workspace";
  /** ok: it ran and said nothing wrong; cancelled: it stopped the tool, prompt or task; failed: see `problem`. */
  outcome: "ok" | "cancelled" | "failed" | "timeout" | "stopped";
  durationMs: number;
  exitCode?: number | null;
  /** It ran inside the command sandbox. */
  sandboxed?: boolean;
  /** What went wrong with it (its exit, its output, its start). */
  problem?: string;
  /** Its errorMessage (for a cancel: the reason). */
  message?: string;
  /** It added text to the model's next message. */
  addedContext?: boolean;
  /** What it printed, stdout then stderr, bounded. */
  output?: string;
}

/**
 * What a completed task touched, as its tools reported it (core/participants/ledger): for the
 * person to check at a glance. Files changed by commands are not listed here (only the commands).
 */
export interface TaskLedger {
  /** Files write_to_file and replace_in_file changed, relative to the workspace (absolute outside it), in first-written order. */
  files: string[];
  commands: LedgerCommand[];
  /** Hosts web_fetch reached (or tried to), in first-reached order. */
  hosts: string[];
  /** MCP servers the task used, by name. */
  mcpServers: string[];
  /** Other files that differ from the workspace as the task found it (its first checkpoint): changed by commands. Absent without checkpoints. */
  otherChanges?: string[];
}

/** One command the task ran, as its output rows reported it. */
export interface LedgerCommand {
  command: string;
  /** sandboxed: inside the OS sandbox; outside: outside it at the model's request, allowed; unconfined: no sandbox (off or unavailable). */
  sandbox: "sandboxed" | "outside" | "unconfined";
  /** How it ended; unset when no row said (it failed to start). */
  end?: CommandEnd;
}

/**
 * A point in the API conversation: its first `messages` messages, the last of them with only its
 * first `lastBlocks` content blocks (later words may be merged into a trailing user message).
 */
export interface ConversationPoint {
  messages: number;
  lastBlocks: number;
}

/** Token and cost accounting of one API request, updated as usage arrives. */
export interface ApiRequestInfo {
  tokensIn: number;
  tokensOut: number;
  cacheWrites: number;
  cacheReads: number;
  cost: number;
  /** The conversation the request sent: what an edit of a later message, or a restore, goes back to. */
  sent?: ConversationPoint;
  /** A task's first request, before it went: the prompt's size and what it costs before the answer (4 characters a token). */
  estimate?: { tokensIn: number; cost: number };
  /** Set once the request is over. */
  outcome?: "completed" | "failed" | "cancelled" | "retried";
  /** Provider error message when it failed. */
  error?: string;
  /** The provider refused the key or the account (HTTP 401/403): the remedy is in the settings. */
  keyRefused?: boolean;
}

/**
 * The requests a restore removed from the chat, summed (shared/usage.ts): they were billed, so the
 * task's totals keep them. `requests` counts them, those of earlier restores included.
 */
export interface RemovedRequests {
  requests: number;
  tokensIn: number;
  tokensOut: number;
  cacheWrites: number;
  cacheReads: number;
  cost: number;
}

/** A condensed conversation's size before and after, in tokens, and what asked for it. */
export interface CondenseInfo {
  tokensBefore: number;
  tokensAfter: number;
  /** `auto`: the context window was nearly full; `compact`: the person typed /compact. */
  trigger: "auto" | "compact";
}

export interface RetryInfo {
  attempt: number;
  maxAttempts: number;
  delaySeconds: number;
  /** What failed, for the person. */
  reason: string;
  /** Set when the wait is over: the request was sent again, or the task was cancelled first. */
  outcome?: "retried" | "cancelled";
}

interface ChatMessageBase {
  /** Unique within a task; also the message's identity for updates. */
  ts: number;
  text?: string;
  /** Data URLs of attached images. */
  images?: string[];
  /** True while the message is still streaming. */
  partial?: boolean;
  tool?: ToolMessageInfo;
  apiRequest?: ApiRequestInfo;
  /** say "checkpoint_restored": what the requests the restore removed had cost. */
  removedRequests?: RemovedRequests;
  retry?: RetryInfo;
  checkpoint?: CheckpointInfo;
  hook?: HookRunInfo;
  /** The checklist as this row left it (say "task_progress"). */
  focusChain?: FocusChainInfo;
  condense?: CondenseInfo;
  /** A command's output rows: how it runs and, once over, how it ended and what the sandbox blocked. */
  command?: CommandRunInfo;
  /** say "task_ledger": what the completed task touched. */
  ledger?: TaskLedger;
  /** Options offered with a followup question. */
  options?: string[];
  /** The person's words (say "task", "user_feedback"): the conversation as it stood when they were said, which an edit of them keeps. Unset in rows saved before it was recorded. */
  conversationAt?: ConversationPoint;
  /** say "checkpoint_restored": the chat was taken back for the edited message that follows it. */
  editedMessage?: boolean;
}

export interface AskMessage extends ChatMessageBase {
  readonly type: "ask";
  ask: AskKind;
  /** How the question ended: the person's answer, or "cancelled" with the task. Unset while open. */
  outcome?: AskOutcome;
}

export type AskOutcome = AskResponse["type"] | "cancelled";

export interface SayMessage extends ChatMessageBase {
  readonly type: "say";
  say: SayKind;
}

export type ChatMessage = AskMessage | SayMessage;

/** The person's answer to an ask. */
export type AskResponse =
  /** `choice`: which of the question's answers it was, where two mean yes (continue once, raise the cap). */
  | { readonly type: "yes"; text?: string; images?: string[]; choice?: string }
  | { readonly type: "no"; text?: string; images?: string[] }
  | { readonly type: "message"; text: string; images?: string[] };
