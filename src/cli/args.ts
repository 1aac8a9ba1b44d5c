import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ApiConfiguration } from "../api";
import { DEFAULT_PROVIDER, isProviderId, PROVIDER_IDS, PROVIDERS, providerChoices } from "../shared/providers";
import { domainProblem } from "../shared/sandbox-domains";
import { DEFAULT_SANDBOX_SETTINGS, type AgentMode, type AutoApprovalSettings, type SandboxMode, type SandboxNetwork, type SandboxSettings, type ToolCallMode } from "../shared/settings";
import { RESTORE_SCOPES, type RestoreScope } from "../shared/checkpoints";
import { parseAutoApprove, switchLines } from "./auto-approve";
import { EXIT_CODE_HELP } from "./exit-codes";
import type { CliMcp } from "./mcp-servers";

/** What the run does: a new task, a saved one again, or only list the saved ones. */
export type CliAction =
  | { readonly kind: "new"; readonly task: string }
  /** `message`, if given, goes to the model with the resumption. */
  | { readonly kind: "resume"; readonly taskId: string; readonly message?: string }
  | { readonly kind: "list" }
  /** `tandem checkpoints list`: a saved task's checkpoints, numbered (0 is the task's start). */
  | { readonly kind: "checkpoints_list"; readonly taskId: string }
  /** `tandem checkpoints restore N --scope files|task|both`. */
  | { readonly kind: "checkpoints_restore"; readonly taskId: string; readonly index: number; readonly scope: RestoreScope };

export interface CliOptions {
  action: CliAction;
  api: ApiConfiguration;
  yolo: boolean;
  autoApproval: Partial<AutoApprovalSettings>;
  json: boolean;
  /** Absolute. */
  cwd: string;
  /** Where task histories are saved: a folder, the per-workspace default, or not at all. */
  storage: { readonly kind: "dir"; readonly dir: string } | { readonly kind: "default" } | { readonly kind: "none" };
  toolCallMode: ToolCallMode;
  sandbox: SandboxSettings;
  /** Save a checkpoint after each round that changed files (off: --no-checkpoints). */
  checkpoints: boolean;
  /** MCP servers: the global file (or --mcp-config), the workspace's with --trust-workspace; none with --no-mcp. */
  mcp: CliMcp;
  /** Read the rules files (the workspace's and the global folder's); off: --no-rules. */
  rules: boolean;
  /** --custom-instructions TEXT: added to every request's system prompt. */
  customInstructions: string;
  /** --trust-workspace: the workspace's hooks run (and its MCP servers start). */
  trustWorkspace: boolean;
  /** The model keeps the task's checklist (task_progress); off: --no-focus-chain. */
  focusChain: boolean;
  /** Summarise the conversation near the window's end (off: --no-auto-condense, the oldest rounds are dropped). */
  autoCondense: boolean;
  /** --plan or --act; undefined: a new task acts, a resumed one keeps its saved mode. */
  mode?: AgentMode;
}

export const USAGE = `Usage: tandem [options] "task"
       tandem --resume [TASK_ID|last] [options] ["message"]
       tandem --list-tasks [--cwd DIR]
       tandem checkpoints list [--task TASK_ID|last] [--cwd DIR]
       tandem checkpoints restore N --scope files|task|both [--task TASK_ID|last] [--cwd DIR]

Options:
  --provider anthropic|openai   model provider (default: anthropic, or openai when only OPENAI_API_KEY is set)
  --model ID                    model id (default: the provider's default model)
  --base-url URL                API endpoint (also ANTHROPIC_BASE_URL / OPENAI_BASE_URL)
  --native-tools                use the provider's native tool calls instead of XML in the text
  --openai-api chat|responses   which OpenAI API to call (default: Responses for GPT-6 and
                                GPT-5.4+ on OpenAI itself, Chat Completions elsewhere)
  --plan                        Plan mode: the model explores (read-only tools) and answers with a
                                plan, which is printed; the run then stops (exit 0). Carry it out
                                with: tandem --resume TASK_ID --act
  --act                         Act mode (the default for a new task; a resumed one keeps its own)
  --yolo                        approve every tool without asking
  --auto-approve LIST           approve these without asking (comma-separated):
${switchLines(" ".repeat(34)).join("\n")}
  --sandbox auto|on|off         run commands in the OS sandbox (bubblewrap, Seatbelt): auto (default)
                                where the machine has one; on refuses commands where it has none
  --sandbox-network none|allowList|all
                                what sandboxed commands reach (default allowList: the package
                                registries, npm, PyPI, crates.io, Go, Maven Central, RubyGems)
  --sandbox-allow-domain HOST   add a host to the allow list (repeatable; "*.example.com" too)
  --sandbox-write DIR           let sandboxed commands also write DIR (repeatable; ~/.npm and
                                ~/.cache are writable by default)
  --mcp-config FILE             MCP servers, in Cline's format ({"mcpServers": {...}}), instead of
                                the global file $XDG_DATA_HOME/tandem/tandem_mcp_settings.json
                                (else ~/.local/share/tandem/tandem_mcp_settings.json)
  --trust-workspace             trust the code this workspace ships: run its hooks (.clinerules/hooks/,
                                .tandem/hooks/) and start the servers of its .tandem/mcp.json
                                (the global hooks, $XDG_DATA_HOME/tandem/hooks/, always run)
  --no-mcp                      start no MCP servers
  --custom-instructions TEXT    your own instructions, added to every request's system prompt
  --no-rules                    read no rules files (.tandemrules, .clinerules, AGENTS.md,
                                .cursorrules, .cursor/rules/, .windsurfrules, and the global folder
                                $XDG_DATA_HOME/tandem/rules/, else ~/.local/share/tandem/rules/)
  --no-focus-chain              the model keeps no checklist of the task (by default it writes one
                                in task_progress, printed when it changes, and is reminded every 6
                                requests without an update)
  --context-window N            the model's context window in tokens (the contextWindowOverride
                                setting; default: the model's own)
  --no-auto-condense            near the window's end, drop the oldest rounds instead of having
                                the model summarise them
  --cwd DIR                     workspace folder (default: the current folder)
  --resume [TASK_ID|last]       go on with a saved task of this workspace (default: the last one);
                                a message after it is passed on to the model
  --list-tasks                  list the saved tasks of this workspace, newest first
  --storage DIR                 where task histories are saved (default: per workspace, under
                                $XDG_DATA_HOME/tandem, else ~/.local/share/tandem)
  --no-storage                  keep the task in memory only (it cannot be resumed)
  --no-checkpoints              do not save checkpoints (by default each round that changed files
                                is saved in a shadow git repository in the storage folder)
  --task TASK_ID|last           the saved task \`checkpoints\` works on (default: the last one)
  --scope files|task|both       what \`checkpoints restore\` puts back: the files, the task's chat and
                                conversation (resume it with --resume), or both
  --json                        print one JSON object per message
  -h, --help                    show this help

Without a terminal (CI, a pipe) and without --yolo, nobody can approve: whatever needs approval
is refused and stops the task (exit code 3). Keys come from ANTHROPIC_API_KEY / OPENAI_API_KEY.

Exit codes:
${EXIT_CODE_HELP}`;

/** Parses argv (without node and script); throws an Error with a clear message on bad input. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): CliOptions | "help" {
  const { values, positionals } = parseArgs({
    args: withResumeDefault(argv),
    allowPositionals: true,
    options: {
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "native-tools": { type: "boolean", default: false },
      "openai-api": { type: "string" },
      plan: { type: "boolean", default: false },
      act: { type: "boolean", default: false },
      yolo: { type: "boolean", default: false },
      "auto-approve": { type: "string", multiple: true },
      sandbox: { type: "string" },
      "sandbox-network": { type: "string" },
      "sandbox-allow-domain": { type: "string", multiple: true },
      "sandbox-write": { type: "string", multiple: true },
      cwd: { type: "string" },
      resume: { type: "string" },
      "list-tasks": { type: "boolean", default: false },
      storage: { type: "string" },
      "no-storage": { type: "boolean", default: false },
      "no-checkpoints": { type: "boolean", default: false },
      "mcp-config": { type: "string" },
      "trust-workspace": { type: "boolean", default: false },
      "no-mcp": { type: "boolean", default: false },
      "custom-instructions": { type: "string" },
      "no-rules": { type: "boolean", default: false },
      "no-focus-chain": { type: "boolean", default: false },
      "context-window": { type: "string" },
      "no-auto-condense": { type: "boolean", default: false },
      task: { type: "string" },
      scope: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  const action = actionOf(positionals, values);
  if (values.storage !== undefined && values["no-storage"]) throw new Error("--storage and --no-storage contradict each other: give one.");
  if (values["no-storage"] && action.kind !== "new") throw new Error("--resume, --list-tasks and `checkpoints` need saved tasks: leave out --no-storage.");
  const mode = parseMode(values.plan, values.act, action);

  // Without --provider: the first whose key is set, else the default (its missing key is reported later).
  const provider = values.provider ?? PROVIDER_IDS.find((id) => env[PROVIDERS[id].keyEnv]) ?? DEFAULT_PROVIDER;
  if (!isProviderId(provider)) {
    throw new Error(`Unknown provider "${provider}": use ${providerChoices()}.`);
  }
  const openAiApi = values["openai-api"];
  if (openAiApi !== undefined && openAiApi !== "chat" && openAiApi !== "responses") {
    throw new Error(`Unknown OpenAI API "${openAiApi}": use chat or responses.`);
  }
  const apiKey = env[PROVIDERS[provider].keyEnv];
  const baseUrl = values["base-url"] ?? env[PROVIDERS[provider].baseUrlEnv];
  return {
    action,
    api: { provider, apiKey, baseUrl, modelId: values.model, ...(openAiApi ? { openAiApi } : {}), ...parseContextWindow(values["context-window"]) },
    yolo: values.yolo,
    autoApproval: parseAutoApprove(values["auto-approve"] ?? []),
    json: values.json,
    // Everything downstream (the command policy, storage keys) needs an absolute path.
    cwd: resolve(cwd, values.cwd ?? "."),
    storage: values["no-storage"] ? { kind: "none" } : values.storage !== undefined ? { kind: "dir", dir: resolve(cwd, values.storage) } : { kind: "default" },
    toolCallMode: values["native-tools"] ? "native" : "xml",
    sandbox: parseSandbox(values),
    checkpoints: !values["no-checkpoints"],
    mcp: parseMcp(values, cwd),
    rules: !values["no-rules"],
    customInstructions: values["custom-instructions"] ?? "",
    trustWorkspace: values["trust-workspace"],
    focusChain: !values["no-focus-chain"],
    autoCondense: !values["no-auto-condense"],
    ...(mode ? { mode } : {}),
  };
}

/** --context-window N: a whole number of tokens, as the contextWindowOverride setting takes. */
function parseContextWindow(raw: string | undefined): { contextWindowOverride?: number } {
  if (raw === undefined) return {};
  const tokens = Number(raw.replace(/_/g, ""));
  if (!/^\d[\d_]*$/.test(raw.trim()) || !Number.isSafeInteger(tokens) || tokens < 1024) {
    throw new Error(`--context-window takes a whole number of tokens, at least 1024; got "${raw}".`);
  }
  return { contextWindowOverride: tokens };
}

function parseMode(plan: boolean, act: boolean, action: CliAction): AgentMode | undefined {
  if (plan && act) throw new Error("--plan and --act contradict each other: give one.");
  const mode = plan ? "plan" : act ? "act" : undefined;
  if (mode && action.kind !== "new" && action.kind !== "resume") throw new Error(`--${mode} goes with a task or --resume.`);
  return mode;
}

function parseMcp(values: { "mcp-config"?: string; "trust-workspace"?: boolean; "no-mcp"?: boolean }, cwd: string): CliMcp {
  const file = values["mcp-config"];
  if (values["no-mcp"]) {
    // --trust-workspace still trusts the workspace's hooks.
    if (file !== undefined) throw new Error("--no-mcp contradicts --mcp-config: give one.");
    return { kind: "none" };
  }
  if (file !== undefined && !file.trim()) throw new Error("--mcp-config needs a file.");
  return { kind: "on", ...(file !== undefined ? { configFile: resolve(cwd, file) } : {}), trustWorkspace: values["trust-workspace"] ?? false };
}

function actionOf(positionals: readonly string[], values: { task?: string; scope?: string; resume?: string; "list-tasks"?: boolean }): CliAction {
  if (positionals[0] === "checkpoints" && positionals.length > 1) return parseCheckpointsAction(positionals.slice(1), values);
  if (values.task !== undefined || values.scope !== undefined) throw new Error("--task and --scope go with `tandem checkpoints`.");
  return parseAction(positionals.join(" ").trim(), values.resume, values["list-tasks"] ?? false);
}

/** `checkpoints list` or `checkpoints restore N --scope S`; `--task` names the saved task (default: the last). */
function parseCheckpointsAction(words: readonly string[], values: { task?: string; scope?: string; resume?: string; "list-tasks"?: boolean }): CliAction {
  if (values.resume !== undefined || values["list-tasks"]) throw new Error("`tandem checkpoints` takes no --resume or --list-tasks: name the task with --task.");
  const taskId = values.task?.trim() || "last";
  const [command, number, ...rest] = words;
  if (command === "list") {
    if (number !== undefined) throw new Error(`\`tandem checkpoints list\` takes no more words; got "${[number, ...rest].join(" ")}".`);
    return { kind: "checkpoints_list", taskId };
  }
  if (command !== "restore") throw new Error(`Unknown \`tandem checkpoints ${command}\`: use list or restore.`);
  if (number === undefined || !/^\d+$/.test(number) || rest.length > 0) throw new Error("`tandem checkpoints restore` needs one checkpoint number (as `tandem checkpoints list` shows).");
  const scope = values.scope;
  if (!RESTORE_SCOPES.includes(scope as RestoreScope)) throw new Error(`\`tandem checkpoints restore\` needs --scope ${RESTORE_SCOPES.join("|")}${scope === undefined ? "" : `; got "${scope}"`}.`);
  return { kind: "checkpoints_restore", taskId, index: Number(number), scope: scope as RestoreScope };
}

const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "on", "off"];
const SANDBOX_NETWORKS: readonly SandboxNetwork[] = ["none", "allowList", "all"];

function parseSandbox(values: { sandbox?: string; "sandbox-network"?: string; "sandbox-allow-domain"?: string[]; "sandbox-write"?: string[] }): SandboxSettings {
  const mode = values.sandbox ?? DEFAULT_SANDBOX_SETTINGS.mode;
  if (!SANDBOX_MODES.includes(mode as SandboxMode)) throw new Error(`Unknown --sandbox "${mode}": use ${SANDBOX_MODES.join(", ")}.`);
  const network = values["sandbox-network"] ?? DEFAULT_SANDBOX_SETTINGS.network;
  if (!SANDBOX_NETWORKS.includes(network as SandboxNetwork)) throw new Error(`Unknown --sandbox-network "${network}": use ${SANDBOX_NETWORKS.join(", ")}.`);
  const allowedDomains = (values["sandbox-allow-domain"] ?? []).map((domain) => domain.trim());
  for (const domain of allowedDomains) {
    const problem = domainProblem(domain);
    if (problem) throw new Error(`--sandbox-allow-domain: ${problem}.`);
  }
  const added = (values["sandbox-write"] ?? []).map((folder) => folder.trim());
  if (added.some((folder) => folder === "")) throw new Error("--sandbox-write needs a folder.");
  const writableFolders = [...new Set([...DEFAULT_SANDBOX_SETTINGS.writableFolders, ...added])];
  return { mode: mode as SandboxMode, network: network as SandboxNetwork, allowedDomains, writableFolders };
}

function parseAction(text: string, resume: string | undefined, list: boolean): CliAction {
  if (list) {
    if (resume !== undefined || text) throw new Error("--list-tasks takes no task and no --resume.");
    return { kind: "list" };
  }
  if (resume !== undefined) {
    if (!resume.trim()) throw new Error("--resume needs a task id, or last.");
    return { kind: "resume", taskId: resume.trim(), ...(text ? { message: text } : {}) };
  }
  if (!text) throw new Error("No task given. Write it as the last argument, in quotes.");
  return { kind: "new", task: text };
}

/** `--resume` alone (last, or followed by another option) means the last task. */
function withResumeDefault(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (arg !== "--resume") return arg;
    const next = argv[i + 1];
    return next === undefined || next.startsWith("-") ? "--resume=last" : arg;
  });
}
