/** What the panel knows (the host's state as last said, and the panel's own: view, notice, input requests), and how it starts. */
import type { FocusChainInfo } from "../../../src/shared/focus-chain";
import type { SandboxStatus } from "../../../src/shared/sandbox-status";
import type { McpPanelState } from "../../../src/shared/mcp";
import type { AgentMode } from "../../../src/shared/settings";
import type { HistoryItem, OpenQuestion, PanelView, ProviderId, TaskSummary, RulesView, SlashCommandView, ToWebviewMessage, WebviewSettings } from "../../../src/shared/protocol";
import { ZERO_USAGE, type UsageTotals } from "../../../src/shared/usage";

export interface HostNotice {
  readonly id: number;
  readonly level: "info" | "warning" | "error";
  readonly text: string;
}

/** A request for the input box (the host's, or an answer handed back); `seq` makes each one distinct. */
export type InputRequest =
  | { readonly seq: number; readonly kind: "focus" }
  | { readonly seq: number; readonly kind: "insert"; readonly text: string; readonly images: readonly string[] };

export interface PanelState {
  /** False until the host's first `state` arrives. */
  readonly hydrated: boolean;
  readonly task: TaskSummary | undefined;
  readonly running: boolean;
  /** What the host asks the person now, as the host says: the panel offers its answers and nothing else. */
  readonly question: OpenQuestion | undefined;
  readonly settings: WebviewSettings | undefined;
  readonly history: readonly HistoryItem[];
  /** The command sandbox as the host last said; undefined until it says. */
  readonly sandbox: SandboxStatus | undefined;
  /** The checkpoint store's size on disk as the host last measured it; undefined until asked and answered. */
  readonly checkpointStoreBytes: number | undefined;
  /** The rules files as the host last read them; undefined until asked and answered. */
  readonly rules: RulesView | undefined;
  /** The host's latest answer to History's search. */
  readonly historyResults: Omit<Extract<ToWebviewMessage, { type: "historyResults" }>, "type"> | undefined;
  /** The host's latest answer to the @-menu's workspace search. */
  readonly workspaceResults: Omit<Extract<ToWebviewMessage, { type: "workspaceResults" }>, "type"> | undefined;
  /** The slash commands as the host last listed them (for the `/` menu); undefined until asked and answered. */
  readonly slashCommands: readonly SlashCommandView[] | undefined;
  /** The last Test connection's outcome (its id tells one test from the next) and the provider it tested, until another is chosen. */
  readonly connectionTest: { readonly id: number; readonly provider: ProviderId; readonly ok: boolean; readonly text: string } | undefined;
  /** The MCP servers as the host last said, and the forms servers asked to show. */
  readonly mcp: McpPanelState;
  /** Plan or Act, as the host says: the task's mode, or the next task's. */
  readonly mode: AgentMode;
  readonly view: PanelView;
  /** The host's latest notice (restored, compared, a refusal, …): a new one replaces it, a new task clears it. */
  readonly notice: HostNotice | undefined;
  /** The task a window reload interrupted is being reopened: the panel offers no new task until its chat is there. */
  readonly restoring: boolean;
  /** The workspace's root folder, as the host last said ("" until then). */
  readonly workspace: string;
  readonly inputRequest: InputRequest | undefined;
  /** The host asked to move the keyboard to the open question's answers (a notification's "Show"); `seq` makes each one distinct. */
  readonly questionFocus: { readonly seq: number; readonly questionId: number } | undefined;
  /** Changes when messages are added or removed, not when one is updated. */
  readonly messageCount: number;
  readonly listVersion: number;
  readonly totals: UsageTotals;
  /** The task's first request, before its usage arrives: what it will cost before its answer. */
  readonly estimate: { readonly tokensIn: number; readonly cost: number } | undefined;
  /** Context tokens of the newest request that reported usage. */
  readonly contextTokens: number;
  /** The checklist as the newest `task_progress` row left it; undefined while the task has none. */
  readonly focusChain: FocusChainInfo | undefined;
}

export const INITIAL_PANEL_STATE: PanelState = {
  hydrated: false,
  task: undefined,
  running: false,
  question: undefined,
  settings: undefined,
  history: [],
  sandbox: undefined,
  checkpointStoreBytes: undefined,
  rules: undefined,
  historyResults: undefined,
  workspaceResults: undefined,
  slashCommands: undefined,
  connectionTest: undefined,
  mcp: { available: false, servers: [], problems: [], elicitations: [] },
  mode: "act",
  view: "chat",
  notice: undefined,
  restoring: false,
  workspace: "",
  inputRequest: undefined,
  questionFocus: undefined,
  messageCount: 0,
  listVersion: 0,
  totals: ZERO_USAGE,
  estimate: undefined,
  contextTokens: 0,
  focusChain: undefined,
};
