/**
 * Where a task is put together, in one place: its scope (the per-task services), its
 * participants in the order they join every moment (PARTICIPANTS: that array is the one place
 * that says what a request carries and who hears each call), and the Task that drives them. A
 * new capability is its own folder under core/participants/ plus one line in the array.
 */
import { homedir } from "node:os";
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { Notice } from "../../shared/notice";
import type { AgentSettings } from "../../shared/settings";
import type { CheckpointRepository } from "../checkpoints/types";
import type { LoadedRules } from "../context/rules";
import type { WorkspaceHooks } from "../hooks";
import type { PathGuard } from "../ignore/path-guard";
import type { McpServers } from "../mcp/servers";
import { TaskCheckpoints } from "../participants/checkpoints/checkpoints";
import { ContextWindow } from "../participants/context-window/context-window";
import { EnvironmentDetails } from "../participants/environment/environment";
import { FocusChain } from "../participants/focus-chain/focus-chain";
import { HooksInLoop } from "../participants/hooks/hooks";
import { TaskLedgerKeeper } from "../participants/ledger/ledger";
import { McpInLoop } from "../participants/mcp/mcp";
import { Notifications } from "../participants/notifications/notifications";
import { MistakeLimit } from "../participants/mistake-limit/mistake-limit";
import { SpendLimit } from "../participants/spend-limit/spend-limit";
import { PlanActMode } from "../participants/mode/mode";
import { PersonText } from "../participants/person-text/person-text";
import { RulesInLoop } from "../participants/rules/rules";
import { SandboxInLoop } from "../participants/sandbox/sandbox";
import { SecretsKeptOut } from "../participants/secrets/secrets";
import { SkillsInLoop } from "../participants/skills/skills";
import type { KnownSecret } from "../secrets/known-secrets";
import { SecretFiles } from "../secrets/secret-files";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import { TaskSkills, type SkillsOptions } from "../skills/task-skills";
import type { SlashCommands } from "../slash";
import type { TaskStorage } from "../storage/task-storage";
import { Task } from "../task";
import type { ChatListener } from "../task/message-state";
import type { TaskParticipant } from "../task/participant";
import type { RetryOptions } from "../task/retry-policy";
import type { PromptFacts } from "../task/system-prompt";
import type { TaskMode } from "../task/task-mode";
import { TaskScope } from "../task/task-scope";
import { MCP_TOOL_NAMES, type ToolSet } from "../task/tools/registry";

/** What the Controller provides for one task. */
export interface TaskKit {
  readonly taskId: string;
  readonly api: ApiHandler;
  readonly host: HostBridge;
  settings(): AgentSettings;
  readonly guard: PathGuard;
  readonly mode: TaskMode;
  readonly listener: ChatListener;
  readonly storage?: TaskStorage;
  readonly commandSandbox?: CommandSandbox;
  /** Every tool the session has; the MCP tools are left out when there are no MCP servers. */
  readonly tools: ToolSet;
  readonly prompt: PromptFacts;
  readonly slash: SlashCommands;
  /** Reads the rules files and custom instructions as they are now. */
  readonly rules: () => Promise<LoadedRules>;
  readonly hooks: WorkspaceHooks;
  /** Where the skills are and whether the workspace's are trusted; none: no skills. */
  readonly skills?: SkillsOptions;
  /** The session's MCP servers; none: no MCP tools, no MCP section. */
  readonly mcp?: McpServers;
  readonly mcpConnectWaitMs?: number;
  /** Opens the task's checkpoints; none: checkpoints are off. */
  readonly checkpoints?: () => Promise<CheckpointRepository | undefined>;
  readonly retry?: Partial<RetryOptions>;
  readonly partialUpdateIntervalMs?: number;
  /** Secrets known when the task is made (the environment's credentials, the API key): never sent to the model. */
  readonly knownSecrets?: readonly KnownSecret[];
  /** Where the task's notifications go (the Controller's event); none: only the Notification hooks hear them. */
  readonly attention?: (notice: Notice) => void;
}

/** Makes a task's participant from its scope and what the Controller provides; undefined: it does not join this task. */
export type ParticipantFactory = (scope: TaskScope, kit: TaskKit) => TaskParticipant | undefined;

/** The participants of every task, in the order they join each moment (participant.ts). */
export const PARTICIPANTS: readonly ParticipantFactory[] = [
  (scope) => new SandboxInLoop(scope.commands),
  (scope) => new MistakeLimit(scope),
  (scope) => new SpendLimit(scope),
  (scope, kit) => new PersonText(scope, kit.slash),
  (scope) => new ContextWindow(scope),
  (scope) => new FocusChain(scope),
  (scope, kit) => (kit.mcp && offersMcp(kit) ? new McpInLoop(scope, kit.mcp, Object.keys(kit.tools), kit.mcpConnectWaitMs) : undefined),
  // Found once when the task opens: the prompt's list stays the same every request.
  (scope, kit) => kit.skills && new SkillsInLoop(scope, new TaskSkills(scope.roots.paths, scope.guard, kit.skills)),
  (scope) => new PlanActMode(scope),
  (scope, kit) => new HooksInLoop(kit.hooks.forTask({ taskId: scope.taskId, roots: scope.roots.paths, settings: () => scope.settings(), commands: scope.commands, say: (kind, text, extra) => scope.say(kind, text, extra) })),
  // After the hooks: a task they stop at its beginning never began its work, so it has nothing to notify.
  (scope, kit) => new Notifications(scope, kit.attention ?? (() => {})),
  (scope, kit) => kit.checkpoints && new TaskCheckpoints(scope, kit.checkpoints),
  (scope, kit) => new RulesInLoop(scope, kit.rules),
  // Hears how every call ended; with the result, shows what the task touched.
  (scope) => new TaskLedgerKeeper(scope),
  // The environment details end every request and name what the others added.
  (scope) => new EnvironmentDetails(scope),
  // After all that adds to a request: it scrubs what the request carries.
  (scope, kit) => new SecretsKeptOut(scope, kit.knownSecrets ?? [], new SecretFiles(scope.roots, process.env.HOME || homedir())),
];

/** One task, assembled: its scope, then each participant, then the Task. */
export function assembleTask(kit: TaskKit, participants: readonly ParticipantFactory[] = PARTICIPANTS): Task {
  const scope = new TaskScope({ taskId: kit.taskId, api: kit.api, host: kit.host, settings: kit.settings, guard: kit.guard, mode: kit.mode, listener: kit.listener, storage: kit.storage, commandSandbox: kit.commandSandbox });
  scope.join(participants.map((make) => make(scope, kit)).filter((p): p is TaskParticipant => p !== undefined));
  const tools = kit.mcp ? kit.tools : withoutMcpTools(kit.tools);
  return new Task(scope, { tools, prompt: kit.prompt, retry: kit.retry, partialUpdateIntervalMs: kit.partialUpdateIntervalMs });
}

function offersMcp(kit: TaskKit): boolean {
  return MCP_TOOL_NAMES.every((name) => Object.hasOwn(kit.tools, name));
}

/** A session without MCP servers offers no MCP tools: they could only fail, and cost prompt. */
function withoutMcpTools(tools: ToolSet): ToolSet {
  return Object.fromEntries(Object.entries(tools).filter(([name]) => !MCP_TOOL_NAMES.includes(name)));
}
