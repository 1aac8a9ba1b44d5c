/**
 * The one definition of the messages between the extension host and the webview. Both sides
 * import it, and every message is a discriminated union member, so a `switch (message.type)` that
 * misses a case fails to compile. Errors cross as data, never as throws.
 *
 * The webview gets the whole state once when it (re)loads (`state`), then only deltas: a message
 * added, one message updated by its timestamp, messages removed, settings changed. The bytes posted
 * per streamed chunk therefore do not grow with the length of the task; and while a message streams,
 * its growing text or file goes as `messageStreamed` (what arrived), not whole, so they do not grow
 * with the length of the message either.
 *
 * What the person is being asked is the host's to say (`question`): it is announced when it opens
 * and when it closes, and the panel offers exactly the answers it lists. An answer names the
 * question it answers, so one that arrives after its question closed is refused, not misapplied.
 */
import type { AskKind, ChatMessage } from "./messages";
import type { FocusChainItem } from "./focus-chain";
import type { SandboxStatus } from "./sandbox-status";
import type { AgentMode, AgentSettings } from "./settings";
import type { UsageTotals } from "./usage";
import type { RestoreScope } from "./checkpoints";
import type { McpAction, McpElicitation, McpElicitationAnswer, McpPanelState, McpProblemView, McpServerView } from "./mcp";

import type { ProviderField, ProviderId } from "./providers";

export type { ProviderId } from "./providers";

/** Provider settings the webview may see and change. The API key is never among them. */
export interface ApiSettings {
  provider: ProviderId;
  baseUrl?: string;
  modelId?: string;
  contextWindowOverride?: number;
  thinkingBudgetTokens?: number;
  /** OpenAI only: which API to call; unset or "auto" lets Tandem choose per model and endpoint. */
  openAiApi?: OpenAiApiSetting;
  /** Bedrock. */
  awsRegion?: string;
  awsProfile?: string;
  /** Vertex AI. */
  vertexProjectId?: string;
  vertexRegion?: string;
}

export type OpenAiApiSetting = "auto" | "chat" | "responses";

/** A known model, for the settings view's picker. */
export interface ModelCatalogEntry {
  provider: ProviderId;
  id: string;
  /** What the server calls it, when that is not its id (OpenRouter's names). */
  name?: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens. */
  inputPrice: number;
  outputPrice: number;
  cacheWritePrice: number;
  cacheReadPrice: number;
}

/** A model list read from the provider's server or from VS Code. */
export interface ModelListStatus {
  /** Epoch ms of the list shown; unset before any was read. */
  fetchedAt?: number;
  /** Why the last read failed (the list shown, if any, is older). */
  error?: string;
  /** A read is under way. */
  reading: boolean;
}

/** Which model tasks use: src/api/model-info.ts owns the default and the catalogue's names. */
export interface ModelInUse {
  id: string;
  /** No model is set: this is the provider's default. */
  isDefault: boolean;
  /** The catalogue's entry it is priced as (a dated or prefixed id maps to its model); unset when unknown. */
  catalogueId?: string;
}

export interface TaskSummary {
  id: string;
  /** The task's prompt. */
  text: string;
  /** Epoch ms when the task started (a resumed one: its first message). */
  startedAt: number;
}

/**
 * How a saved task ended. "running" while it runs, and also for a task whose host died under it
 * (the next host was not there to see it end): that one was interrupted.
 */
export const TASK_STATUSES = ["running", "completed", "failed", "cancelled", "interrupted"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One saved task, for the history view. */
export interface HistoryItem extends TaskSummary {
  /** `sumUsage` of its chat: the numbers its task header shows (shared/usage.ts). */
  usage: UsageTotals;
  /** Unset in an index written before Tandem recorded it. */
  status?: TaskStatus;
  /** The workspace root the task ran in; unset in an index written before Tandem recorded it. */
  workspace?: string;
  /** Starred in History: kept by "Delete all". */
  favorite?: boolean;
}

/** History's tasks of this workspace, or of every workspace (shared/history-view.ts decides which are which). */
export type HistoryScope = "workspace" | "all";

/** A character range `[start, end)`. */
export type TextRange = readonly [number, number];

/**
 * One task History's search found. `rank` orders the matches (lower is better: the task's text
 * before its conversation, exact before prefix before substring before the words apart before a
 * fuzzy subsequence); `ranges` are in the task's text, or in `snippet` for a conversation match.
 */
export interface HistoryMatch {
  readonly id: string;
  readonly rank: number;
  readonly field: "text" | "conversation";
  readonly ranges: readonly TextRange[];
  /** A conversation match: the words around it, and who wrote them. */
  readonly snippet?: { readonly text: string; readonly by: "person" | "model" };
}

export interface WebviewSettings {
  agent: AgentSettings;
  api: ApiSettings;
  /** Whether a key is stored, for each provider that takes one (the key itself never leaves the host). */
  hasApiKey: Partial<Record<ProviderId, boolean>>;
  /** The selected provider needs a key and none is stored: no task can start until one is saved. */
  needsApiKey: boolean;
  /** The selected provider's models. */
  models: readonly ModelCatalogEntry[];
  /** For providers whose models their server (or VS Code) lists: how that list stands. */
  modelList?: ModelListStatus;
  /** The selected provider's settings that must be set and are not (e.g. Vertex's project). */
  missingFields: readonly ProviderField[];
  /** The model tasks use now (the one set, or the provider's default). */
  model: ModelInUse;
  /** The context window of the selected model, after any override. */
  contextWindow: number;
}

/**
 * The answers each kind of question takes. Each name but `reply` is a button's meaning; `reply` is a
 * typed message (text and images) that answers it: feedback on a rejected edit, the answer to a
 * followup, guidance after mistakes, a message to a command left running.
 */
export interface QuestionAnswers {
  /** The model's own options are on the row; picking one replies with its text. */
  followup: "reply";
  tool: "approve" | "reject" | "reply";
  /** The command a result suggests is optional: `skip` instead of `reject`. */
  command: "run" | "reject" | "skip" | "reply";
  /** A command still running: leave it running in the background, or stop it. */
  command_output: "proceed" | "kill" | "reply";
  completion_result: "accept" | "reply";
  /** No reply: what was typed waits in the queue for the next question. */
  api_req_failed: "retry" | "stop";
  mistake_limit_reached: "proceed" | "stop" | "reply";
  /** Continue with one more request, raise the caps reached (double them, for this task), or stop. */
  spend_limit_reached: "proceed" | "raise" | "stop";
  new_task: "accept" | "decline" | "reply";
  resume_task: "resume" | "reply";
  /** A reply (or one of the model's options) goes on planning; `accept` takes the plan as it is and ends the task (the CLI's --plan). */
  plan_mode_respond: "reply" | "accept";
}

export type AnswerChoice = QuestionAnswers[AskKind];

interface QuestionOf<K extends AskKind> {
  /** The timestamp of the row that asks it (a row asks at most once): answers name it. */
  readonly id: number;
  readonly kind: K;
  /** What the question takes, in the order the panel offers them. */
  readonly answers: readonly QuestionAnswers[K][];
}

/** The question the task waits on; at most one is open at a time. */
export type OpenQuestion = { [K in AskKind]: QuestionOf<K> }[AskKind];

/** The person's answer to question `questionId`. Text and images are the reply, or feedback given with a choice. */
export interface QuestionAnswer {
  readonly questionId: number;
  readonly choice: AnswerChoice;
  readonly text?: string;
  readonly images?: readonly string[];
}

export interface WebviewState {
  task: TaskSummary | undefined;
  messages: readonly ChatMessage[];
  /** What the person is being asked now, if anything. */
  question: OpenQuestion | undefined;
  /** True while the task is running (requests in flight or waiting for an answer). */
  running: boolean;
  settings: WebviewSettings;
  history: readonly HistoryItem[];
  /** The MCP servers, their files' problems and open elicitations. */
  mcp: McpPanelState;
  /** Plan or Act: the current task's mode, or the one the next task starts in. */
  mode: AgentMode;
  /** The task a window reload interrupted is being reopened: the panel offers no new task meanwhile. */
  restoring: boolean;
  /** The workspace's root folder: the start screen lists this workspace's recent tasks (HistoryItem.workspace). */
  workspace: string;
}

/** Views the host can ask the panel to show. */
export type PanelView = "chat" | "settings" | "history" | "mcp";

/** The string fields of a chat message that grow while it streams: its text, and a tool's content. */
export type StreamedField = "text" | "tool.content";

/** A rules file as the rules reader found it (core/context/rules.ts): its name, its switch, and whether the size limit cut it. */
export interface RuleFileView {
  readonly name: string;
  readonly enabled: boolean;
  readonly cut?: boolean;
}

/** A slash command the `/` menu offers (core/slash): a built-in, a workflow file, or an MCP server's prompt. */
export interface SlashCommandView {
  /** Without the slash. */
  readonly name: string;
  readonly description: string;
  readonly kind: "builtin" | "workflow" | "mcp";
}

/** The rules files of the workspace and the global folder, and what the reader warned of. */
export interface RulesView {
  readonly files: readonly RuleFileView[];
  readonly warnings: readonly string[];
}

/** A file or folder of the workspace the @-menu offers: workspace-relative, `/` separators. */
export interface WorkspaceEntryView {
  readonly path: string;
  readonly isFolder: boolean;
}

export type ToWebviewMessage =
  | { readonly type: "state"; state: WebviewState }
  | { readonly type: "messageAdded"; message: ChatMessage }
  /**
   * A message changed. `kept`: streamed strings left out of `message` because the webview holds
   * them unchanged (a streamed file becoming its approval question, then answered, is not re-sent).
   */
  | { readonly type: "messageUpdated"; message: ChatMessage; kept?: readonly StreamedField[] }
  /**
   * A streaming message changed only in `field`: keep its first `from` characters and append `text`.
   * Sent only for a message the webview was sent whole (since its last `state`).
   */
  | { readonly type: "messageStreamed"; ts: number; field: StreamedField; from: number; text: string }
  | { readonly type: "messagesRemoved"; timestamps: readonly number[] }
  /** A saved chat was loaded whole (a resumed or restored task): posted at once, before its next question. */
  | { readonly type: "messagesLoaded"; messages: readonly ChatMessage[] }
  | { readonly type: "taskChanged"; task: TaskSummary | undefined }
  | { readonly type: "taskRunning"; running: boolean }
  /** The interrupted task is being reopened (true), or that is over: its chat is loaded, or it could not be (false). */
  | { readonly type: "restoring"; restoring: boolean }
  /** The Plan/Act mode changed (switched, or a task opened in its own). */
  | { readonly type: "modeChanged"; mode: AgentMode }
  /** A question opened (before its row is shown) or closed: answered, withdrawn, or ended with the task. */
  | { readonly type: "questionChanged"; question: OpenQuestion | undefined }
  /** An answer the host did not deliver (its question had closed); the panel keeps what was typed. */
  | { readonly type: "answerRefused"; answer: QuestionAnswer; reason: string }
  | { readonly type: "settingsChanged"; settings: WebviewSettings }
  /** The checkpoint store's size on disk, after a `checkpointStore` request. */
  | { readonly type: "checkpointStore"; bytes: number }
  /** The rules files as read now, after a `rules` request or a change of their switches. */
  | { readonly type: "rules"; rules: RulesView }
  /** A saved task was added or changed (its status, its totals); the list is sent whole only in `state`. */
  | { readonly type: "historyItemChanged"; item: HistoryItem }
  /** Saved tasks deleted (one, or those "Delete all" removed). */
  | { readonly type: "historyItemsRemoved"; ids: readonly string[] }
  /**
   * The answer to `searchHistory` `requestId`: the tasks of its scope whose text or conversation
   * match `query`, best first; at most the best few hundred of `total`, so a keystroke posts a
   * bounded answer however many tasks match.
   */
  | { readonly type: "historyResults"; requestId: number; query: string; matches: readonly HistoryMatch[]; total: number }
  /**
   * What the OS sandbox for commands does: posted once the machine has been checked, after each
   * change of tandem.sandbox.*, and after each \`state\` (a new page holds nothing). Not part of
   * \`state\`: the host's sandbox feed owns it (host/vscode/sandbox-feed.ts).
   */
  | { readonly type: "sandboxChanged"; sandbox: SandboxStatus }
  /**
   * MCP servers whose state changed (whole, each in the hub's order; a new name is appended) and
   * those gone; `problems` when the files' problems changed. The whole list goes only in `state`.
   */
  | { readonly type: "mcpServersChanged"; changed: readonly McpServerView[]; removed: readonly string[]; problems?: readonly McpProblemView[] }
  /** A server asks the person for input: the panel shows the form until it is answered or closed. */
  | { readonly type: "mcpElicitationOpened"; elicitation: McpElicitation }
  /** Answered, or withdrawn (the server gave up, the task ended): the panel drops the form. */
  | { readonly type: "mcpElicitationClosed"; id: number }
  | { readonly type: "showView"; view: PanelView }
  | { readonly type: "focusInput" }
  /** A notification's "Show": the keyboard goes to the answers of question `questionId` (the panel checks it is still the open one). */
  | { readonly type: "focusQuestion"; questionId: number }
  /** Text to insert into the input box (e.g. "Add Selection to Chat"). */
  | { readonly type: "insertText"; text: string }
  /** Something the person must see that belongs to no task (e.g. a settings error). */
  | { readonly type: "notice"; level: "info" | "warning" | "error"; text: string }
  /** The answer to `searchWorkspace` `requestId`: the best matches for its query. */
  | { readonly type: "workspaceResults"; requestId: number; query: string; results: readonly WorkspaceEntryView[] }
  /** The answer to `testConnection`: whether a request got an answer, and what failed in words. */
  | { readonly type: "connectionTested"; provider: ProviderId; ok: boolean; text: string }
  /** The answer to `slashCommands`: every command the `/` menu may offer now, in its order. */
  | { readonly type: "slashCommands"; commands: readonly SlashCommandView[] };

export type FromWebviewMessage =
  | { readonly type: "ready" }
  | { readonly type: "newTask"; text: string; images: readonly string[] }
  | { readonly type: "answer"; answer: QuestionAnswer }
  | { readonly type: "cancelTask" }
  /** The Plan/Act switch: the current task's mode, or the next task's when none runs. */
  | { readonly type: "setMode"; mode: AgentMode }
  | { readonly type: "clearTask" }
  | { readonly type: "resumeTask"; id: string }
  | { readonly type: "deleteTask"; id: string }
  /** "Delete all": every task of the scope but the favourites and the open one (the host decides which, as shared/history-view.ts says). */
  | { readonly type: "deleteTasks"; scope: HistoryScope }
  /** Stars a saved task (kept by "Delete all") or takes its star away. */
  | { readonly type: "setFavorite"; id: string; favorite: boolean }
  /**
   * History's search: answered with `historyResults` of the same id. The host searches; the list
   * stays in the panel. An empty query (posted as History opens) matches nothing: the host loads
   * what searching needs meanwhile.
   */
  | { readonly type: "searchHistory"; query: string; requestId: number; scope: HistoryScope }
  /** Saves a task as Markdown where the person chooses (a save dialog). */
  | { readonly type: "exportTask"; id: string }
  | { readonly type: "updateAgentSettings"; settings: Partial<AgentSettings> }
  | { readonly type: "updateApiSettings"; settings: Partial<ApiSettings> }
  /** The model picker's Refresh: read the provider's model list again. */
  | { readonly type: "refreshModels" }
  /** One tiny request with the settings as they are; answered by `connectionTested`. */
  | { readonly type: "testConnection" }
  /** Write-only: the key goes to the host's secret storage and never comes back. */
  | { readonly type: "setApiKey"; provider: ProviderId; apiKey: string }
  | { readonly type: "openFile"; path: string }
  /** Opens the diff of the checkpoint on row `ts` against the workspace now (the task's first row: all the task changed). */
  | { readonly type: "compareCheckpoint"; ts: number }
  /** Takes the task back to the checkpoint on row `ts`; the panel has asked the person to confirm. */
  | { readonly type: "restoreCheckpoint"; ts: number; scope: RestoreScope }
  /** The person's message on row `ts`, edited: the task goes back to it (its files too, with `restoreFiles`) and on from the new text. */
  | { readonly type: "editMessage"; ts: number; text: string; images: readonly string[]; restoreFiles: boolean }
  /** Asks for the checkpoint store's size (answered with `checkpointStore`), or deletes it all. */
  | { readonly type: "checkpointStore"; action: "measure" | "clean" }
  /** Asks for the rules files found now (answered with `rules`). */
  | { readonly type: "rules" }
  /** An action of the MCP view; a failure comes back as a notice. */
  | { readonly type: "mcpAction"; action: McpAction }
  /** The person's answer to an open elicitation (refused with a notice when it no longer is open or does not fit). */
  | { readonly type: "mcpElicitationAnswer"; answer: McpElicitationAnswer }
  /** The @-menu's query (what follows the `@`); answered with `workspaceResults` of the same id. */
  | { readonly type: "searchWorkspace"; query: string; requestId: number }
  /** The `/` menu opened: asks for the commands known now (answered with `slashCommands`). */
  | { readonly type: "slashCommands" }
  /** The person edited the task's checklist: the whole new list (a refusal comes back as a notice). */
  | { readonly type: "editFocusChain"; items: readonly FocusChainItem[] };
