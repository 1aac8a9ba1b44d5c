import { randomUUID } from "node:crypto";
import pWaitFor from "p-wait-for";
import type { ApiConfiguration } from "../../api";
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { AskResponse, ChatMessage } from "../../shared/messages";
import type { HistoryItem, OpenQuestion, TaskStatus, TaskSummary } from "../../shared/protocol";
import { AGENT_MODES, type AgentSettings } from "../../shared/settings";
import { sumUsage } from "../../shared/usage";
import { IgnoreController } from "../ignore/ignore-controller";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import type { SandboxStatus } from "../../shared/sandbox-status";
import { buildSystemPrompt } from "../prompts/system-prompt";
import { RulesReader, rulesForPrompt, type LoadedRules } from "../context/rules";
import { describeServersForPrompt, type McpHub } from "../mcp";
import { focusChainSection } from "../task/focus-chain-prompt";
import type { TaskHistory } from "../storage/task-history";
import type { AbortReason } from "../task/task-state";
import { TaskStorage } from "../storage/task-storage";
import { Task, type CheckpointRepository, type TaskOutcome } from "../task";
import { checkpointOf, rewound, type CheckpointChange, type CheckpointService, type RestoreScope } from "./checkpoints";
import type { RestoredFiles } from "../../shared/checkpoints";
import type { ChatListener } from "../task/message-state";
import type { RetryOptions } from "../task/retry-policy";
import { MCP_TOOL_NAMES, TOOLS } from "../task/tools/registry";
import type { ToolDefinition } from "../task/tools/types";
import type { SettingsSource } from "./settings-source";
import { WorkspaceHooks, type HooksOptions } from "../hooks";
import { SlashCommands } from "../slash";
import type { PathGuard } from "../ignore/path-guard";
import { errorText } from "../util/error-text";
import { TaskMode, toolsForMode, type AgentMode } from "../task/mode";
import { ModeApiHandler } from "./mode-api";

/** What the Controller tells its UI (the webview bridge, the CLI printer, a test). */
export interface ControllerListener extends ChatListener {
  /** A task began (its messages will follow) or the chat was cleared (undefined). */
  onTaskChanged(task: TaskSummary | undefined): void;
  onTaskFinished(taskId: string, outcome: TaskOutcome): void;
  /** A saved task was listed or changed (it started, its totals grew, it ended). */
  onHistoryItemChanged?(item: HistoryItem): void;
  /** The Plan/Act mode changed: switched, or a task opened (in its own mode). */
  onModeChanged?(mode: AgentMode): void;
}

export interface ControllerOptions {
  host: HostBridge;
  listener: ControllerListener;
  /** Builds the provider client for a task; the SDKs load only when a task starts. */
  createApiHandler: (config: ApiConfiguration) => ApiHandler | Promise<ApiHandler>;
  /** Where settings and the API configuration are read, each time they are needed. */
  settings: SettingsSource;
  /** Where task histories are kept; none keeps them in memory only. */
  storageRoot?: string;
  /** The saved-task index (needs storageRoot). */
  history?: TaskHistory;
  tools?: Readonly<Record<string, ToolDefinition>>;
  retry?: Partial<RetryOptions>;
  /** The workspace's checkpoint store; none runs tasks without checkpoints. */
  checkpoints?: CheckpointService;
  environment?: { os: string; shell: string };
  /** The OS sandbox commands run in (it outlives tasks); none runs them unconfined. */
  sandbox?: CommandSandbox;
  /**
   * The MCP servers (it outlives tasks; whoever builds the Controller creates, starts and disposes
   * it). None: tasks have no MCP tools and the prompt no MCP section.
   */
  mcp?: McpHub;
  /** How long each request waits for MCP servers still connecting (default 10 s). */
  mcpConnectWaitMs?: number;
  /**
   * The rules files (core/context/rules.ts): `globalFolder` is `<Tandem storage>/rules/`; `files`
   * false reads none (the CLI's --no-rules). The custom instructions setting applies either way.
   */
  rules?: { readonly globalFolder?: string; readonly files?: boolean };
  /** The workflows (core/slash): `globalFolder` is `<Tandem storage>/workflows/`; the workspace's are always read. */
  workflows?: { readonly globalFolder?: string };
  /** The hooks (core/hooks): the global folder (`<Tandem storage>/hooks/`) and how a workspace's are trusted. */
  hooks?: HooksOptions;
  partialUpdateIntervalMs?: number;
}

/**
 * Reads the settings from their one source and owns exactly one Task at a time: a new prompt disposes the previous task and
 * creates a fresh one. Routes the person's answers, cancel and clear to the current task.
 */
export class Controller {
  private task: Task | undefined;
  /** What the current task is (its prompt, when it started): the one owner the panel's header and History read. */
  private summary: TaskSummary | undefined;
  private taskDone: Promise<TaskOutcome> | undefined;
  /** The person's latest answer and the question (its row) it answered (see showsResult). */
  private lastAnswer: { ts: number; response: AskResponse } | undefined;
  /** The workspace's ignore rules, loaded at the first task and kept in sync with the files. */
  private ignore: { allowSecretFiles: boolean; controller: Promise<IgnoreController> } | undefined;
  private toldCheckpointsOff = false;
  /** Outlives tasks, so its cache of unchanged rules files does too. */
  private readonly rulesReader = new RulesReader();
  /** Outlives tasks, so the person's trust in a workspace's hooks does too. */
  readonly hooks: WorkspaceHooks;
  /** The mode the person last chose (or a task opened in): the next task starts in it. */
  private chosenMode: AgentMode | undefined;

  constructor(private readonly options: ControllerOptions) {
    this.hooks = new WorkspaceHooks(options.hooks);
  }

  get currentTask(): Task | undefined {
    return this.task;
  }

  get currentSummary(): TaskSummary | undefined {
    return this.summary;
  }

  /** True from a task's start until it has finished. */
  get isRunning(): boolean {
    return this.task !== undefined && !this.task.isFinished;
  }

  /** The settings as they are now (the sandbox's own reach it from its owner, the host's sandbox feed). */
  getSettings(): AgentSettings {
    return this.options.settings.agentSettings();
  }

  /** Plan or Act: the current task's mode, else the one the next task starts in (the defaultMode setting until the person switches). */
  get mode(): AgentMode {
    return this.task?.mode.current ?? this.chosenMode ?? this.getSettings().defaultMode;
  }

  /** The person's Plan/Act switch: the running task's mode (saved with it), and the next task's. */
  setMode(mode: AgentMode): void {
    if (!AGENT_MODES.includes(mode)) throw new Error(`Unknown mode ${JSON.stringify(mode)}: use ${AGENT_MODES.join(" or ")}.`);
    const changed = mode !== this.mode;
    this.chosenMode = mode;
    this.task?.setMode(mode);
    if (changed) this.options.listener.onModeChanged?.(mode);
  }

  /** Starts a task for the prompt, disposing the previous one. Resolves with the task once it runs. */
  async newTask(text: string, images: readonly string[] = []): Promise<Task> {
    if (!text.trim() && images.length === 0) throw new Error("A task needs some text or an image.");
    await this.clearTask();
    return this.launch(text, images);
  }

  /** Resolves with the outcome of the current task, following new_task hand-offs to the last one. */
  async waitForTask(): Promise<TaskOutcome | undefined> {
    return this.taskDone;
  }

  /**
   * Opens a saved task again. A completed one opens as it ended, its result waiting for a reply or
   * a new task; any other asks the person whether to resume.
   */
  async resumeTask(taskId: string, options: { mode?: AgentMode } = {}): Promise<Task> {
    const root = this.options.storageRoot;
    if (!root) throw new Error("Tasks are not saved in this session, so none can be resumed.");
    await this.clearTask();
    const storage = new TaskStorage(root, taskId);
    const saved = { chat: await storage.loadChatMessages(), api: await storage.loadApiHistory() };
    if (saved.chat.length === 0) throw new Error(`No saved task ${taskId} was found.`);
    const status = (await this.options.history?.get(taskId))?.status;
    const savedMode = await this.savedMode(storage);
    // The conversation ran in its saved mode; a mode asked for now is a switch the model is told of.
    const task = await this.createTask(taskId, { current: options.mode ?? savedMode ?? this.mode, told: savedMode });
    const completed = status === "completed";
    // Until it ends, it keeps the status it was saved with.
    return this.run(task, () => task.resumeTask(saved, { completed }), { text: saved.chat[0]?.text ?? "", shown: saved.chat, status: status ?? "interrupted" });
  }

  /** A task's saved mode; a damaged record is told to the person, and the task opens in the current mode. */
  private async savedMode(storage: TaskStorage): Promise<AgentMode | undefined> {
    try {
      return await storage.loadMode();
    } catch (error) {
      this.options.host.window.notify("warning", `Tandem: ${errorText(error)} The task opens in ${this.mode === "plan" ? "Plan" : "Act"} mode.`);
      return undefined;
    }
  }

  private async launch(text: string, images: readonly string[]): Promise<Task> {
    const task = await this.createTask(randomUUID(), { current: this.mode });
    return this.run(task, () => task.startTask(text, images), { text, shown: [], status: "running" });
  }

  /** `first` is what the History index holds while the task starts: a resumed task's saved chat and status. */
  private run(task: Task, start: () => Promise<TaskOutcome>, first: { text: string; shown: readonly ChatMessage[]; status: TaskStatus }): Task {
    const { listener } = this.options;
    const summary: TaskSummary = { id: task.taskId, text: first.text, startedAt: first.shown[0]?.ts ?? Date.now() };
    const shownMode = this.mode;
    this.task = task;
    this.summary = summary;
    this.chosenMode = task.mode.current;
    listener.onTaskChanged(summary);
    // A resumed task may open in another mode than the switch showed.
    if (task.mode.current !== shownMode) listener.onModeChanged?.(task.mode.current);
    void this.recordHistory(summary, first.shown, first.status);
    this.taskDone = start().then(async (outcome) => {
      await this.recordHistory(summary, task.messages.chatMessages, statusOf(outcome, task));
      listener.onTaskFinished(task.taskId, outcome);
      const handoff = task.handoffContext;
      // new_task: the next task starts from the summary, unless the person moved on meanwhile.
      if (!handoff || this.task !== task) return outcome;
      await this.launch(handoff, []);
      return (await this.taskDone) ?? outcome;
    });
    return task;
  }

  private async createTask(taskId: string, startMode: { current: AgentMode; told?: AgentMode }): Promise<Task> {
    const { options } = this;
    // The stall timeout is a setting; a configuration that names its own (a test) keeps it.
    const configuration = await options.settings.apiConfiguration();
    const streamIdleTimeoutMs = configuration.streamIdleTimeoutMs ?? this.getSettings().stallTimeoutSeconds * 1000;
    const storage = options.storageRoot ? new TaskStorage(options.storageRoot, taskId) : undefined;
    const mode = new TaskMode(startMode.current, { told: startMode.told, save: storage && ((m) => storage.saveMode(m)), onError: (error) => options.host.window.notify("error", `Tandem: ${errorText(error)}`) });
    const actApi = await options.createApiHandler({ ...configuration, streamIdleTimeoutMs });
    // Plan-mode requests go to the planModeModelId model when one is set, its client made on the first of them.
    const api = new ModeApiHandler(actApi, () => mode.current, () => {
      const planModel = this.getSettings().planModeModelId.trim();
      return planModel && planModel !== configuration.modelId ? options.createApiHandler({ ...configuration, modelId: planModel, streamIdleTimeoutMs }) : undefined;
    });
    const ignore = await this.ignoreController();
    // The first task may start while the sandbox is still being checked: its commands wait for that anyway.
    const sandboxStatus = await options.sandbox?.ready();
    const tools = withoutMcpTools(options.tools ?? TOOLS, options.mcp === undefined);
    const environment = options.environment ?? { os: process.platform, shell: process.env.SHELL ?? "sh" };
    const hub = MCP_TOOL_NAMES.some((name) => Object.hasOwn(tools, name)) ? options.mcp : undefined;
    // Rebuilt when the mode or what the prompt says of the MCP servers changes (one connected, one failed).
    let prompt: { mode: string; agentMode: AgentMode; mcp: string; rules: string; custom: string; focus: boolean; text: string } | undefined;
    return new Task({
      taskId,
      api,
      host: options.host,
      tools,
      ignore,
      commandSandbox: options.sandbox,
      settings: () => this.getSettings(),
      mode,
      systemPrompt: (loaded, agentMode) => {
        const mode = this.getSettings().toolCallMode;
        const mcp = hub ? describeServersForPrompt(hub.servers()) : "";
        const rules = rulesForPrompt(loaded);
        const custom = loaded.customInstructions;
        const focus = this.getSettings().focusChain;
        if (prompt?.mode !== mode || prompt.agentMode !== agentMode || prompt.mcp !== mcp || prompt.rules !== rules || prompt.custom !== custom || prompt.focus !== focus) {
          const offered = toolsForMode(tools, agentMode);
          const focusChain = focus ? focusChainSection(mode) : undefined;
          const text = buildSystemPrompt({ cwd: options.host.workspace.root, ...environment, tools: offered, toolCallMode: mode, ...sandboxPrompt(sandboxStatus), mcpServers: mcp, rules, customInstructions: custom, focusChain, mode: agentMode });
          prompt = { mode, agentMode, mcp, rules, custom, focus, text };
        }
        return prompt.text;
      },
      rules: () => this.readRules(ignore),
      slash: this.slashCommands(ignore, hub),
      mcp: hub,
      hooks: this.hooks,
      mcpConnectWaitMs: options.mcpConnectWaitMs,
      listener: this.chatListener(taskId),
      storage,
      checkpoints: this.taskCheckpoints(taskId),
      retry: options.retry,
      partialUpdateIntervalMs: options.partialUpdateIntervalMs,
    });
  }

  /**
   * The task's chat goes to the listener as it is; on the way, the History index follows the task:
   * running when a request starts, its totals as each request ends, completed once its result is
   * shown (so leaving it, or a crash, finds it so). (A new ChatListener method must be forwarded here.)
   */
  private chatListener(taskId: string): ChatListener {
    const { listener, history } = this.options;
    const follow = (message: ChatMessage, added: boolean) => {
      const chat = this.task?.taskId === taskId ? this.task.messages.chatMessages : undefined;
      const change = historyChange(message, added);
      if (!change || !history || !chat) return;
      void history.amend(taskId, { ...change, usage: sumUsage(chat) }).then((item) => item && listener.onHistoryItemChanged?.(item));
    };
    return {
      onMessageAdded: (message) => {
        listener.onMessageAdded(message);
        follow(message, true);
      },
      onMessageUpdated: (message) => {
        listener.onMessageUpdated(message);
        follow(message, false);
      },
      onMessagesRemoved: (timestamps) => listener.onMessagesRemoved(timestamps),
      onMessagesLoaded: (messages) => listener.onMessagesLoaded?.(messages),
      onQuestionChanged: (question) => listener.onQuestionChanged?.(question),
    };
  }

  /** Keeps the history index in step with the task: its prompt, totals (as the task header sums them) and status. */
  private async recordHistory(summary: TaskSummary, chat: readonly ChatMessage[], status: TaskStatus): Promise<void> {
    const history = this.options.history;
    if (!history) return;
    const item = { ...summary, usage: sumUsage(chat), status };
    await history.upsert(item);
    this.options.listener.onHistoryItemChanged?.(item);
  }

  /**
   * How a new task opens its checkpoints (off the request path): not at all when they are switched
   * off; when they cannot work here (no git), the person is told once per session, not per task.
   */
  private taskCheckpoints(taskId: string): (() => Promise<CheckpointRepository | undefined>) | undefined {
    const service = this.options.checkpoints;
    if (!service || !this.getSettings().checkpoints) return undefined;
    return async () => {
      const unavailable = await service.unavailable();
      if (!unavailable) return service.forTask(taskId);
      if (!this.toldCheckpointsOff) this.options.host.window.notify("warning", `Tandem: ${unavailable}`);
      this.toldCheckpointsOff = true;
      return undefined;
    };
  }

  /** The files that differ between a step's checkpoint (the row `ts`) and the workspace now. */
  async checkpointChanges(ts: number): Promise<CheckpointChange[]> {
    const { task, service } = this.checkpointTask();
    return (await service.forTask(task.taskId)).changes(checkpointOf(task.messages.chatMessages, ts).hash);
  }

  /**
   * Takes the task back to the step of row `ts`: its files, its chat and conversation, or both. The
   * task must not be in the middle of a round (it waits for the person, or has ended). A restored
   * task asks whether to go on from there.
   */
  async restoreCheckpoint(ts: number, scope: RestoreScope): Promise<RestoredFiles | undefined> {
    const { task, service } = this.checkpointTask();
    const checkpoint = checkpointOf(task.messages.chatMessages, ts);
    if (!task.isFinished && !task.openQuestion) throw new Error("The task is still working: wait until it asks or stops (or cancel it), then restore.");
    const files = scope === "task" ? undefined : await (await service.forTask(task.taskId)).restoreFiles(checkpoint.hash);
    if (scope === "files") return files;
    const saved = rewound({ chat: task.messages.chatMessages, api: task.messages.apiHistory }, ts);
    await this.clearTask();
    const restored = await this.createTask(task.taskId, { current: task.mode.current });
    this.run(restored, () => restored.resumeTask(saved, { restored: { files: scope === "both" } }), { text: saved.chat[0]?.text ?? "", shown: saved.chat, status: "interrupted" });
    return files;
  }

  private checkpointTask(): { task: Task; service: CheckpointService } {
    const task = this.task;
    const service = this.options.checkpoints;
    if (!task) throw new Error("No task is open.");
    if (!service) throw new Error("Checkpoints are off in this session.");
    return { task, service };
  }

  /** The person's edit of the current task's checklist (the panel's focus chain); throws when there is no task or the list does not fit. */
  async editFocusChain(items: unknown): Promise<void> {
    if (!this.task) throw new Error("No task is open, so there is no checklist to edit.");
    return this.task.editFocusChain(items);
  }

  /** What the current task waits for the person to answer, if anything. */
  get openQuestion(): OpenQuestion | undefined {
    return this.task?.openQuestion;
  }

  /**
   * The person's answer to question `questionId`. Returns false when that question is not open
   * (answered already, withdrawn, or of a task that is gone): the answer was not delivered.
   */
  answer(questionId: number, response: AskResponse): boolean {
    const taken = this.task?.answer(questionId, response) ?? false;
    if (taken) this.lastAnswer = { ts: questionId, response };
    return taken;
  }

  /** Ends the running task; "shutdown" when the host is going away rather than the person cancelling. */
  async cancelTask(reason: AbortReason = "cancelled"): Promise<void> {
    const task = this.task;
    if (!task) return;
    // A shown result is accepted and the task finishes as completed first; either way the abort
    // then stops what the task still runs (a command left in the background ends with its task).
    if (await this.acceptShownResult(task)) await this.taskDone;
    await task.abortTask(reason);
    await this.taskDone;
  }

  /**
   * A task whose result is on screen is done: moving on from it (a new task, History, a reload)
   * accepts the result rather than cancelling the task. Its remaining questions (the suggested
   * command, then the result) are answered "no": skip, accept. False when no result is shown, or
   * when the task asks something else meanwhile (then it is cancelled after all).
   */
  private async acceptShownResult(task: Task): Promise<boolean> {
    if (!this.showsResult(task)) return false;
    while (!task.isFinished) {
      const question = task.openQuestion;
      if (question) {
        if (!this.showsResult(task)) return false;
        this.answer(question.id, { type: "no" });
      }
      // The next question opens, or the task ends, a few microtasks later.
      await pWaitFor(() => task.openQuestion !== undefined || task.isFinished, { interval: 5 });
    }
    return true;
  }

  /** The result is accepted and the task finishing, or it is on screen, waiting for the person or just answered without a reply. */
  private showsResult(task: Task): boolean {
    if (task.state.taskEnd) return task.state.taskEnd.kind === "completed";
    const open = task.openQuestion;
    if (open) return isResultQuestion(task.messages.find(open.id));
    const last = task.messages.chatMessages.at(-1);
    const answered = this.lastAnswer;
    if (!answered || !isResultQuestion(last) || answered.ts !== last?.ts) return false;
    return !answered.response.text?.trim() && !answered.response.images?.length;
  }

  /** Ends the current task (if any), releases it, and empties the chat. */
  async clearTask(reason: AbortReason = "cancelled"): Promise<void> {
    const task = this.task;
    if (!task) return;
    await this.cancelTask(reason);
    // The Controller made the task, so it disposes it.
    await task.dispose(reason);
    this.task = undefined;
    this.summary = undefined;
    this.taskDone = undefined;
    this.options.listener.onTaskChanged(undefined);
  }

  /** Ends the current task and stops watching the workspace. */
  async dispose(): Promise<void> {
    await this.clearTask("shutdown");
    const ignore = this.ignore;
    this.ignore = undefined;
    (await ignore?.controller)?.dispose();
  }

  /** The rules as they are now, for the next request (and the panel's list). */
  readRules(guard?: IgnoreController): Promise<LoadedRules> {
    const settings = this.getSettings();
    const rules = this.options.rules;
    const read = (g: IgnoreController) =>
      this.rulesReader.read({
        roots: [this.options.host.workspace.root],
        globalFolder: rules?.globalFolder,
        files: rules?.files,
        guard: g,
        toggles: settings.ruleToggles,
        customInstructions: settings.customInstructions,
      });
    return guard ? read(guard) : this.ignoreController().then(read);
  }

  /** The slash commands of this workspace (core/slash), its workflows judged by `guard`. */
  slashCommands(guard: PathGuard, mcp: McpHub | undefined = this.options.mcp): SlashCommands {
    return new SlashCommands({ roots: [this.options.host.workspace.root], globalFolder: this.options.workflows?.globalFolder, guard }, mcp);
  }

  /** The guard tools are judged by now, for what the panel offers (the @-menu's files). */
  workspaceGuard(): Promise<IgnoreController> {
    return this.ignoreController();
  }

  private async ignoreController(): Promise<IgnoreController> {
    const allowSecretFiles = this.getSettings().allowSecretFiles;
    if (this.ignore?.allowSecretFiles !== allowSecretFiles) {
      const previous = this.ignore;
      this.ignore = { allowSecretFiles, controller: IgnoreController.create(this.options.host.workspace.root, { allowSecretFiles }) };
      (await previous?.controller)?.dispose();
    }
    return this.ignore.controller;
  }

  get messages(): readonly ChatMessage[] {
    return this.task?.messages.chatMessages ?? [];
  }
}

/** The result's question, or the question whether to run the command it suggests. */
function isResultQuestion(message: ChatMessage | undefined): boolean {
  return message?.type === "ask" && (message.ask === "completion_result" || (message.ask === "command" && message.tool?.tool === "attempt_completion"));
}

/** What a chat message changes in the History entry beyond its totals; undefined when nothing. */
function historyChange(message: ChatMessage, added: boolean): { status?: TaskStatus } | undefined {
  if (message.type === "ask") return added && message.ask === "completion_result" ? { status: "completed" } : undefined;
  if (message.say !== "api_req_started") return undefined;
  if (added) return { status: "running" };
  // A request just ended: its usage is all in.
  return message.apiRequest?.outcome === undefined ? undefined : {};
}

function statusOf(outcome: TaskOutcome, task: Task): TaskStatus {
  if (outcome === "aborted") return task.state.abortReason === "shutdown" ? "interrupted" : "cancelled";
  return outcome === "mistake_limit" ? "failed" : outcome;
}

/** A session without MCP servers offers no MCP tools: they could only fail, and cost prompt. */
function withoutMcpTools(tools: Readonly<Record<string, ToolDefinition>>, drop: boolean): Readonly<Record<string, ToolDefinition>> {
  if (!drop) return tools;
  return Object.fromEntries(Object.entries(tools).filter(([name]) => !MCP_TOOL_NAMES.includes(name)));
}

/** What the system prompt says of the sandbox: read when the task starts, as the sandbox is then. */
function sandboxPrompt(status: SandboxStatus | undefined): { sandbox?: { network: string } } {
  if (!status?.active) return {};
  const network = status.network === "all" ? "any host but this machine's own services" : status.network === "none" ? "no host" : "only package registries and a few allowed hosts";
  return { sandbox: { network } };
}
