import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ApiConfiguration } from "../api";
import { DEFAULT_PROVIDER, isProviderId, PROVIDER_IDS, PROVIDERS, providerChoices, PROVIDER_FIELDS, takesField, type ProviderField, type ProviderId } from "../shared/providers";
import { domainProblem } from "../shared/sandbox-domains";
import { allowRuleWords } from "../core/permissions/allow-rule-syntax";
import { DEFAULT_SANDBOX_SETTINGS, type AgentMode, type AutoApprovalSettings, type SandboxMode, type SandboxNetwork, type SandboxSettings, type ToolCallMode } from "../shared/settings";
import { RESTORE_SCOPES, type RestoreScope } from "../shared/checkpoints";
import { parseAutoApprove, switchLines } from "./auto-approve";
import { EXIT_CODE_HELP } from "./exit-codes";
import { listingFlagsOnly, parseExportAction, parseListAction, type HistoryAction, type HistoryFlags } from "./history-args";
import type { CliMcp } from "./mcp-servers";
import { version } from "../../package.json";

/** What `tandem --version` prints. */
export const VERSION = `tandem ${version}`;

/** What the run does: a new task, a saved one again, or only list the saved ones. */
export type CliAction =
  | { readonly kind: "new"; readonly task: string }
  /**
   * `message`, if given, goes to the model with the resumption. With `from`, it replaces the
   * person's `from`-th message (1: the task), and the task goes on from there (its files back too,
   * unless `keepFiles`).
   */
  | { readonly kind: "resume"; readonly taskId: string; readonly message?: string; readonly from?: number; readonly keepFiles?: boolean }
  /** `--list-tasks` and `tandem export` (history-args.ts). */
  | HistoryAction
  /** `tandem models [--provider X] [--refresh]`: the models the provider offers (its server's list, or the catalogue). */
  | { readonly kind: "models"; readonly refresh: boolean }
  /** `tandem checkpoints list`: a saved task's checkpoints, numbered (0 is the task's start). */
  | { readonly kind: "checkpoints_list"; readonly taskId: string }
  /** `tandem checkpoints restore N --scope files|task|both`. */
  | { readonly kind: "checkpoints_restore"; readonly taskId: string; readonly index: number; readonly scope: RestoreScope };

export interface CliOptions {
  action: CliAction;
  api: ApiConfiguration;
  yolo: boolean;
  autoApproval: Partial<AutoApprovalSettings>;
  /** --allow-command RULE: the command allow-list (empty: the built-in one). */
  commandAllowList: string[];
  json: boolean;
  /** Absolute: the primary workspace folder (commands start there; plain relative paths resolve there). */
  cwd: string;
  /** Absolute: more workspace folders (`--root DIR`, repeatable), each named after its folder. */
  roots: string[];
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
  /** --trust-workspace: the workspace's hooks run (and its MCP servers start, its skills are offered). */
  trustWorkspace: boolean;
  /** The model keeps the task's checklist (task_progress); off: --no-focus-chain. */
  focusChain: boolean;
  /** Summarise the conversation near the window's end (off: --no-auto-condense, the oldest rounds are dropped). */
  autoCondense: boolean;
  /** --plan or --act; undefined: a new task acts, a resumed one keeps its saved mode. */
  mode?: AgentMode;
  /** --max-cost USD and --max-requests N (0: no cap). */
  spendCaps: { maxCostPerTask: number; maxRequestsPerTask: number };
  /** --notify COMMAND: run through the shell at each notification (notify-command.ts). */
  notify?: string;
}

/** The providers the CLI offers: all but those only VS Code has. */
const CLI_PROVIDERS = PROVIDER_IDS.filter((id) => !PROVIDERS[id].extensionOnly);

const HELP_INDENT = " ".repeat(32);

/** Every provider's variables for a setting, from the registry, e.g. "ANTHROPIC_API_KEY, OPENAI_API_KEY, …". */
function variablesOf(field: ProviderField): string {
  return CLI_PROVIDERS.flatMap((id) => PROVIDERS[id].env[field] ?? []).join(", ");
}

/** Text broken into lines of at most 100 characters, each starting with `indent`. */
function wrapped(text: string, indent: string): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(" ")) {
    if (line.length + word.length + 1 > 100 && line.trim()) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  return [...lines, line.trimEnd()].join("\n");
}

export const USAGE = `Usage: tandem [options] "task"
       tandem --resume [TASK_ID|last] [options] ["message"]
       tandem --resume TASK_ID|last --from N [--keep-files] [options] "edited message"
       tandem --list-tasks [--json] [--search TEXT] [--all-workspaces] [--sort S] [--cwd DIR]
       tandem export TASK_ID [--output FILE] [--cwd DIR]
       tandem models [--provider X] [--refresh] [--json]
       tandem checkpoints list [--task TASK_ID|last] [--cwd DIR]
       tandem checkpoints restore N --scope files|task|both [--task TASK_ID|last] [--cwd DIR]

Options:
  --provider NAME               model provider (default anthropic; without it, the first whose key
                                variable is set):
${wrapped(providerChoices(CLI_PROVIDERS), HELP_INDENT)}
  --model ID                    model id (default: the provider's default model; Ollama and LM Studio
                                have none: see \`tandem models --provider ollama\`)
  --base-url URL                API endpoint (default: the provider's own); also
${wrapped(variablesOf("baseUrl"), HELP_INDENT)}
  --aws-region REGION           Bedrock: the AWS region (also AWS_REGION / AWS_DEFAULT_REGION;
                                default us-east-1)
  --aws-profile NAME            Bedrock: a profile of ~/.aws/config, SSO ones too (also AWS_PROFILE;
                                default: the AWS credential chain: environment, profile, SSO, IMDS)
  --vertex-project ID           Vertex AI: the Google Cloud project (also GOOGLE_CLOUD_PROJECT,
                                ANTHROPIC_VERTEX_PROJECT_ID); signed with Application Default
                                Credentials (gcloud auth application-default login)
  --vertex-region REGION        Vertex AI: the region (also GOOGLE_CLOUD_LOCATION, CLOUD_ML_REGION;
                                default global)
  --refresh                     \`tandem models\`: read the server's list again (it is kept an hour)
  --max-cost USD                stop to ask (unattended: stop, exit 4) once the task has spent this
                                much, as Tandem prices its requests; passed by at most one request
  --max-requests N              the same, once the task has made N requests
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
  --allow-command RULE          a read-only command that \`--auto-approve command-safe\` runs without
                                asking, by its leading words ("git status"; repeatable); given,
                                the rules replace the built-in list (tandem.commandAllowList)
  --sandbox auto|on|off         run commands in the OS sandbox (bubblewrap, Seatbelt): auto (default)
                                where the machine has one; on refuses commands where it has none
  --sandbox-network none|allowList|all
                                what sandboxed commands reach (default allowList: the package
                                registries, npm, PyPI, crates.io, Go, Maven Central, RubyGems)
  --sandbox-allow-domain HOST   add a host to the allow list (repeatable; "*.example.com" too);
                                web_fetch treats a listed local host (127.0.0.1:3000) as any site
  --sandbox-write DIR           let sandboxed commands also write DIR (repeatable; ~/.npm and
                                ~/.cache are writable by default)
  --mcp-config FILE             MCP servers, in Cline's format ({"mcpServers": {...}}), instead of
                                the global file $XDG_DATA_HOME/tandem/tandem_mcp_settings.json
                                (else ~/.local/share/tandem/tandem_mcp_settings.json)
  --trust-workspace             trust the code this workspace ships: run its hooks (.clinerules/hooks/,
                                .tandem/hooks/), start the servers of its .tandem/mcp.json and
                                offer its skills (.clinerules/skills/, .tandem/skills/, .claude/skills/)
                                (the global hooks and skills, $XDG_DATA_HOME/tandem/, always work)
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
  --cwd DIR                     workspace folder (default: the current folder); commands start
                                there and a plain relative path is in it
  --root DIR                    another workspace folder (repeatable): the model writes its paths
                                as NAME/… (NAME: the folder's name; a clash takes -2, -3 …);
                                tools, rules, ignore files, checkpoints and the sandbox cover it
  --resume [TASK_ID|last]       go on with a saved task of this workspace (default: the last one);
                                a message after it is passed on to the model
  --from N                      with --resume and a message: the message replaces your Nth message
                                of the task (1 is the task itself); the task goes back to where
                                that message was said, its files too, and goes on from there
  --keep-files                  with --from: leave the files as they are now
  --list-tasks                  list the saved tasks of this workspace, newest first (--json: one
                                JSON object per task)
  --search TEXT                 --list-tasks: the tasks whose prompt or conversation match TEXT,
                                best first (exact, prefix, substring, the words apart, fuzzy)
  --all-workspaces              --list-tasks: every workspace's saved tasks, not only this one's
  --sort newest|oldest|cost|tokens
                                --list-tasks: the order (default newest; cost, tokens: most first)
  --output FILE                 \`tandem export\`: write the Markdown to FILE (default: stdout)
  --storage DIR                 where task histories are saved (default: per workspace, under
                                $XDG_DATA_HOME/tandem, else ~/.local/share/tandem)
  --no-storage                  keep the task in memory only (it cannot be resumed)
  --no-checkpoints              do not save checkpoints (by default each round that changed files
                                is saved in a shadow git repository in the storage folder)
  --task TASK_ID|last           the saved task \`checkpoints\` works on (default: the last one)
  --scope files|task|both       what \`checkpoints restore\` puts back: the files, the task's chat and
                                conversation (resume it with --resume), or both
  --notify COMMAND              run COMMAND (through sh, at most 10 s) when a question waits for you
                                at the terminal and when the task ends, with the words in
                                $TANDEM_NOTIFICATION (never in the command line), the event in
                                $TANDEM_NOTIFICATION_EVENT and _KIND, the task in $TANDEM_TASK_ID;
                                e.g. --notify 'notify-send Tandem "$TANDEM_NOTIFICATION"'
  --json                        print one JSON object per message
  -h, --help                    show this help
  --version                     show Tandem's version

When stderr is a terminal, Tandem rings its bell when a question waits for you there and when
the task ends. Without a terminal (CI, a pipe) and without --yolo, nobody can approve: whatever
needs approval is refused and stops the task (exit code 3). Keys come from the environment only (a Bedrock API
key is optional: without one the AWS credential chain signs):
${wrapped(variablesOf("apiKey"), "")}

Exit codes:
${EXIT_CODE_HELP}`;

function parseRoots(roots: readonly string[], cwd: string): string[] {
  if (roots.some((root) => root.trim() === "")) throw new Error("--root needs a folder.");
  return roots.map((root) => resolve(cwd, root));
}

/** Parses argv (without node and script); throws an Error with a clear message on bad input. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): CliOptions | "help" | "version" {
  const { values, positionals } = parseArgs({
    args: withResumeDefault(argv),
    allowPositionals: true,
    options: {
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "aws-region": { type: "string" },
      "aws-profile": { type: "string" },
      "vertex-project": { type: "string" },
      "vertex-region": { type: "string" },
      "native-tools": { type: "boolean", default: false },
      "openai-api": { type: "string" },
      plan: { type: "boolean", default: false },
      act: { type: "boolean", default: false },
      yolo: { type: "boolean", default: false },
      "auto-approve": { type: "string", multiple: true },
      "allow-command": { type: "string", multiple: true },
      sandbox: { type: "string" },
      "sandbox-network": { type: "string" },
      "sandbox-allow-domain": { type: "string", multiple: true },
      "sandbox-write": { type: "string", multiple: true },
      cwd: { type: "string" },
      root: { type: "string", multiple: true },
      resume: { type: "string" },
      from: { type: "string" },
      "keep-files": { type: "boolean", default: false },
      "list-tasks": { type: "boolean", default: false },
      search: { type: "string" },
      "all-workspaces": { type: "boolean" },
      sort: { type: "string" },
      output: { type: "string" },
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
      refresh: { type: "boolean", default: false },
      "max-cost": { type: "string" },
      "max-requests": { type: "string" },
      notify: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
      version: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  if (values.version) return "version";
  const action = withEditFrom(actionOf(positionals, values, cwd), values.from, values["keep-files"]);
  if (values.storage !== undefined && values["no-storage"]) throw new Error("--storage and --no-storage contradict each other: give one.");
  if (values["no-storage"] && action.kind !== "new") throw new Error("--resume, --list-tasks, `export` and `checkpoints` need saved tasks: leave out --no-storage.");
  const mode = parseMode(values.plan, values.act, action);

  const api = parseApi(values, env);
  return {
    action,
    api,
    yolo: values.yolo,
    autoApproval: parseAutoApprove(values["auto-approve"] ?? []),
    commandAllowList: parseAllowCommands(values["allow-command"] ?? []),
    json: values.json,
    // Everything downstream (the command policy, storage keys) needs an absolute path.
    cwd: resolve(cwd, values.cwd ?? "."),
    roots: parseRoots(values.root ?? [], cwd),
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
    spendCaps: parseSpendCaps(values["max-cost"], values["max-requests"]),
    ...parseNotify(values.notify, action),
  };
}

function parseAllowCommands(rules: readonly string[]): string[] {
  return rules.map((rule) => {
    const parsed = allowRuleWords(rule);
    if ("problem" in parsed) throw new Error(`--allow-command: ${parsed.problem}.`);
    return parsed.words.join(" ");
  });
}

function parseNotify(command: string | undefined, action: CliAction): { notify?: string } {
  if (command === undefined) return {};
  if (!command.trim()) throw new Error("--notify needs a command, such as 'notify-send Tandem \"$TANDEM_NOTIFICATION\"'.");
  if (action.kind !== "new" && action.kind !== "resume") throw new Error("--notify goes with a task or --resume.");
  return { notify: command };
}

/** --max-cost USD (e.g. 2.50, or $2.50) and --max-requests N; 0 or absent: no cap. */
function parseSpendCaps(cost: string | undefined, requests: string | undefined): CliOptions["spendCaps"] {
  const dollars = cost === undefined ? 0 : Number(cost.trim().replace(/^\$/, ""));
  if (cost !== undefined && (!/^\$?\d+(?:\.\d+)?$/.test(cost.trim()) || !Number.isFinite(dollars))) {
    throw new Error(`--max-cost takes US dollars, such as 2.50; got "${cost}".`);
  }
  const count = requests === undefined ? 0 : Number(requests.trim());
  if (requests !== undefined && (!/^\d+$/.test(requests.trim()) || !Number.isSafeInteger(count))) {
    throw new Error(`--max-requests takes a whole number of requests; got "${requests}".`);
  }
  return { maxCostPerTask: dollars, maxRequestsPerTask: count };
}

/** The first of the field's environment variables that is set (e.g. GEMINI_API_KEY, then GOOGLE_API_KEY). */
export function providerEnv(env: NodeJS.ProcessEnv, provider: ProviderId, field: ProviderField): string | undefined {
  for (const name of PROVIDERS[provider].env[field] ?? []) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

interface ApiFlags {
  provider?: string;
  model?: string;
  "base-url"?: string;
  "openai-api"?: string;
  "context-window"?: string;
  "aws-region"?: string;
  "aws-profile"?: string;
  "vertex-project"?: string;
  "vertex-region"?: string;
}

/** The provider and its settings: flags first, then the provider's environment variables. */
function parseApi(values: ApiFlags, env: NodeJS.ProcessEnv): ApiConfiguration {
  // Without --provider: the first whose key is set, else the default (its missing key is reported later).
  const provider = values.provider ?? CLI_PROVIDERS.find((id) => providerEnv(env, id, "apiKey")) ?? DEFAULT_PROVIDER;
  if (!isProviderId(provider)) throw new Error(`Unknown provider "${provider}": use ${providerChoices(CLI_PROVIDERS)}.`);
  if (PROVIDERS[provider].extensionOnly) {
    throw new Error(`The provider ${provider} (${PROVIDERS[provider].name}) is only available inside VS Code: use ${providerChoices(CLI_PROVIDERS)}.`);
  }
  const openAiApi = values["openai-api"];
  if (openAiApi !== undefined && openAiApi !== "chat" && openAiApi !== "responses") {
    throw new Error(`Unknown OpenAI API "${openAiApi}": use chat or responses.`);
  }
  const flags: Partial<Record<ProviderField, string | undefined>> = {
    baseUrl: values["base-url"],
    awsRegion: values["aws-region"],
    awsProfile: values["aws-profile"],
    vertexProjectId: values["vertex-project"],
    vertexRegion: values["vertex-region"],
  };
  const given = (field: ProviderField): string | undefined => flags[field]?.trim() || providerEnv(env, provider, field);
  for (const [field, value] of Object.entries(flags)) {
    if (value !== undefined && !takesField(provider, field as ProviderField)) {
      const takes = PROVIDERS[provider].fields.flatMap((f) => (PROVIDER_FIELDS[f].flag ? [`--${PROVIDER_FIELDS[f].flag}`] : []));
      throw new Error(`--${PROVIDER_FIELDS[field as ProviderField].flag} does not go with --provider ${provider} (it takes ${takes.join(", ") || "none of these settings"}).`);
    }
  }
  const settings: ApiConfiguration = { provider, modelId: values.model, ...(openAiApi ? { openAiApi } : {}), ...parseContextWindow(values["context-window"]) };
  for (const field of PROVIDERS[provider].fields) {
    const value = given(field);
    if (value !== undefined) settings[field] = value;
  }
  return settings;
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

function actionOf(positionals: readonly string[], values: HistoryFlags & { task?: string; scope?: string; resume?: string; refresh?: boolean }, cwd: string): CliAction {
  if (positionals[0] === "export" && positionals.length > 1 && values.resume === undefined && !values["list-tasks"]) return parseExportAction(positionals.slice(1), values, cwd);
  if (values["list-tasks"] && positionals.length === 0 && values.resume === undefined) return parseListAction(values);
  listingFlagsOnly(values, "a task");
  if (values.output !== undefined) throw new Error("--output goes with `tandem export`.");
  if (positionals[0] === "checkpoints" && positionals.length > 1) return parseCheckpointsAction(positionals.slice(1), values);
  if (positionals[0] === "models" && positionals.length === 1 && values.resume === undefined && !values["list-tasks"]) return { kind: "models", refresh: values.refresh ?? false };
  if (values.refresh) throw new Error("--refresh goes with `tandem models`.");
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
  // --list-tasks alone was taken before (history-args.ts).
  if (list) throw new Error("--list-tasks takes no task and no --resume.");
  if (resume !== undefined) {
    if (!resume.trim()) throw new Error("--resume needs a task id, or last.");
    return { kind: "resume", taskId: resume.trim(), ...(text ? { message: text } : {}) };
  }
  if (!text) throw new Error("No task given. Write it as the last argument, in quotes.");
  return { kind: "new", task: text };
}

/** `--from N [--keep-files]`: the resumed task goes on from the person's Nth message, edited. */
function withEditFrom(action: CliAction, from: string | undefined, keepFiles: boolean): CliAction {
  if (from === undefined) {
    if (keepFiles) throw new Error("--keep-files goes with --from.");
    return action;
  }
  if (action.kind !== "resume") throw new Error("--from goes with --resume: tandem --resume TASK_ID --from N \"edited message\".");
  if (!action.message) throw new Error("--from needs the edited message, in quotes, as the last argument.");
  const index = Number(from);
  if (!Number.isInteger(index) || index < 1) throw new Error(`--from needs a message number (1 is the task itself), not "${from}".`);
  return { ...action, from: index, keepFiles };
}

/** `--resume` alone (last, or followed by another option) means the last task. */
function withResumeDefault(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (arg !== "--resume") return arg;
    const next = argv[i + 1];
    return next === undefined || next.startsWith("-") ? "--resume=last" : arg;
  });
}
