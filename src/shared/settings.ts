/** Settings shapes shared by the core, the extension host and the webview. */

/** Cline's auto-approval switches. Commands and external paths each need their own switch. */
export interface AutoApprovalSettings {
  readFiles: boolean;
  readFilesExternally: boolean;
  editFiles: boolean;
  editFilesExternally: boolean;
  executeSafeCommands: boolean;
  executeAllCommands: boolean;
  useBrowser: boolean;
  useMcp: boolean;
  /** Run, without asking, commands the model asks to run outside the OS sandbox (`sandbox="off"`). */
  runOutsideSandbox: boolean;
}

export const DEFAULT_AUTO_APPROVAL: Readonly<AutoApprovalSettings> = {
  readFiles: true,
  readFilesExternally: false,
  editFiles: false,
  editFilesExternally: false,
  executeSafeCommands: false,
  executeAllCommands: false,
  useBrowser: false,
  useMcp: false,
  runOutsideSandbox: false,
};

/** `auto`: commands run in the OS sandbox where the machine has one; `on`: refuse commands where it has none. */
export type SandboxMode = "auto" | "on" | "off";
/** What sandboxed commands may reach: nothing, the allow list (package registries and added domains), or everything. */
export type SandboxNetwork = "none" | "allowList" | "all";

export interface SandboxSettings {
  mode: SandboxMode;
  network: SandboxNetwork;
  /** Domains added to the allow list, e.g. "api.github.com" or "*.example.com". */
  allowedDomains: string[];
  /** Folders commands may write besides the workspace and the task's temp folder, e.g. "~/.npm", "~/.cache". */
  writableFolders: string[];
}

export const DEFAULT_SANDBOX_SETTINGS: Readonly<SandboxSettings> = {
  mode: "auto",
  network: "allowList",
  allowedDomains: [],
  // Package managers' caches: npm ci, pip and cargo fail without them.
  writableFolders: ["~/.npm", "~/.cache"],
};

/** How the model calls tools: XML in its text (any model) or the provider's native tool calls. */
export type ToolCallMode = "xml" | "native";

/** Plan: the model explores and discusses, nothing is changed. Act: it carries the work out. */
export type AgentMode = "plan" | "act";
export const AGENT_MODES: readonly AgentMode[] = ["plan", "act"];

export interface AgentSettings {
  /** Approve everything without asking. */
  yolo: boolean;
  autoApproval: AutoApprovalSettings;
  /** Consecutive model mistakes before the task stops to ask (YOLO: ends). */
  mistakeLimit: number;
  toolCallMode: ToolCallMode;
  /** Let tools read `.env`, keys and other files that usually hold secrets. */
  allowSecretFiles: boolean;
  /** Read-only commands "execute safe commands" may run without asking (leading words, e.g. "git status"); empty = the built-in list. */
  commandAllowList: string[];
  /** Refuse destructive commands (rm -rf ~, mkfs, curl | sh …) even in YOLO mode. */
  commandDenyGuard: boolean;
  /** Automatic retries of a failed request before the person is asked whether to go on. */
  requestRetries: number;
  /** Longest silence from the provider, before the first event or between two, before a request counts as stalled. */
  stallTimeoutSeconds: number;
  /** The OS sandbox commands run in. */
  sandbox: SandboxSettings;
  /** Save the workspace after each round that changed files, to compare and restore (needs git). */
  checkpoints: boolean;
  /** The person's own instructions, added to every request's system prompt. */
  customInstructions: string;
  /** Rules files switched on or off, by the name the rules reader gives them (e.g. ".clinerules/style.md"); a file not listed is on. */
  ruleToggles: Record<string, boolean>;
  /** Run the hooks (core/hooks): the global folder's, and a trusted workspace's. */
  hooks: boolean;
  /** How long one hook may run before its process group is killed. */
  hookTimeoutSeconds: number;
  /** The focus chain: the model keeps a checklist of the task (task_progress), shown in the panel. */
  focusChain: boolean;
  /** Requests without a checklist update after which the model is reminded to update it. */
  focusChainReminderInterval: number;
  /** Near the context window's end, have the model summarise the conversation (on) or drop the oldest rounds (off). */
  autoCondense: boolean;
  /** The mode a task starts in until the person switches (the switch then stays where they put it). */
  defaultMode: AgentMode;
  /** The model Plan-mode requests go to (same provider); empty: the same model as Act mode. */
  planModeModelId: string;
  /** USD a task may spend before it stops to ask (0: no cap). */
  maxCostPerTask: number;
  /** Requests a task may make before it stops to ask (0: no cap). */
  maxRequestsPerTask: number;
}

/**
 * A request that never answers ends within (retries + 1) x stall timeout + the backoff between
 * attempts (2 + 4 + 8 s): with the defaults, 4 x 30 + 14 = 134 s, under two and a half minutes.
 */
export const REQUEST_LIMITS = {
  requestRetries: { min: 0, max: 10 },
  stallTimeoutSeconds: { min: 5, max: 600 },
  hookTimeoutSeconds: { min: 1, max: 600 },
} as const;

/** The focus chain's reminder comes every N requests without an update. */
export const FOCUS_CHAIN_LIMITS = { reminderInterval: { min: 1, max: 100 } } as const;

export const DEFAULT_AGENT_SETTINGS: Readonly<AgentSettings> = {
  yolo: false,
  autoApproval: DEFAULT_AUTO_APPROVAL,
  mistakeLimit: 3,
  toolCallMode: "xml",
  allowSecretFiles: false,
  commandAllowList: [],
  commandDenyGuard: true,
  requestRetries: 3,
  stallTimeoutSeconds: 30,
  sandbox: DEFAULT_SANDBOX_SETTINGS,
  checkpoints: true,
  customInstructions: "",
  ruleToggles: {},
  hooks: true,
  hookTimeoutSeconds: 30,
  focusChain: true,
  focusChainReminderInterval: 6,
  autoCondense: true,
  maxCostPerTask: 0,
  maxRequestsPerTask: 0,
  defaultMode: "act",
  planModeModelId: "",
};
