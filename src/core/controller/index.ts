import { randomUUID } from "node:crypto";
import type { ApiConfiguration } from "../../api";
import type { ApiHandler, ApiMessage } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { RestoredFiles } from "../../shared/checkpoints";
import type { AskResponse, ChatMessage } from "../../shared/messages";
import type { OpenQuestion, TaskStatus, TaskSummary } from "../../shared/protocol";
import type { SandboxStatus } from "../../shared/sandbox-status";
import { AGENT_MODES, type AgentMode, type AgentSettings } from "../../shared/settings";
import type { CheckpointRepository } from "../checkpoints/types";
import type { LoadedRules } from "../context/rules";
import { WorkspaceHooks, type HooksOptions } from "../hooks";
import type { PathGuard } from "../ignore/path-guard";
import type { McpHub } from "../mcp";
import { FocusChain } from "../participants/focus-chain/focus-chain";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import type { SlashCommands } from "../slash";
import type { TaskDigests } from "../history/task-digests";
import type { TaskHistory } from "../storage/task-history";
import { TaskStorage } from "../storage/task-storage";
import type { Task, TaskOutcome } from "../task";
import type { RetryOptions } from "../task/retry-policy";
import type { PromptFacts } from "../task/system-prompt";
import { TaskMode } from "../task/task-mode";
import type { AbortReason } from "../task/task-state";
import { TOOLS } from "../task/tools/registry";
import type { ToolDefinition } from "../task/tools/types";
import { errorText } from "../util/error-text";
import type { WorkspaceRoots } from "../util/workspace-roots";
import { checkpointOf, rewound, type CheckpointChange, type CheckpointService, type RestoreScope } from "./checkpoints";
import { ControllerEvents } from "./controller-events";
import { HistoryFollower, statusOf } from "./history-follower";
import { editPoint } from "./message-edit";
import { ModeApiHandler } from "./mode-api";
import type { SettingsSource } from "./settings-source";
import { acceptShownResult, type LastAnswer } from "./shown-result";
import { apiKeySecret, environmentSecrets } from "../secrets/known-secrets";
import type { SkillsOptions } from "../skills/task-skills";
import { SkillTrustMemory } from "../skills/trust";
import { assembleTask, type ParticipantFactory } from "./task-assembly";
import { WorkspaceContext } from "./workspace-context";

export type { ChatChange } from "./controller-events";

/** What History shows of a task while it starts (a resumed one: as saved). */
interface TaskStart {
  readonly text: string;
  readonly shown: readonly ChatMessage[];
  readonly status: TaskStatus;
  readonly startedAt?: number;
}

export interface ControllerOptions {
  host: HostBridge;
  /** Builds the provider client for a task; the SDKs load only when a task starts. */
  createApiHandler: (config: ApiConfiguration) => ApiHandler | Promise<ApiHandler>;
  /** Where settings and the API configuration are read, each time they are needed. */
  settings: SettingsSource;
  /** Where task histories are kept; none keeps them in memory only. */
  storageRoot?: string;
  /** The saved-task index (needs storageRoot). */
  history?: TaskHistory;
  /** The saved tasks' searchable digests, made as each task runs (needs history). */
  digests?: TaskDigests;
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
  /** The workflows (core/slash): `globalFolder` is `<Tandem storage>/workflows/`; the workspace's are read unless `workspace` says no. */
  workflows?: { readonly globalFolder?: string; readonly workspace?: () => boolean };
  /** The hooks (core/hooks): the global folder (`<Tandem storage>/hooks/`) and how a workspace's are trusted. */
  hooks?: HooksOptions;
  /** The skills (core/skills): the global folder (`<Tandem storage>/skills/`) and whether a workspace's are trusted (none: never). */
  skills?: SkillsOptions;
  partialUpdateIntervalMs?: number;
  /** Who joins each task, in order (default: task-assembly.ts's PARTICIPANTS). */
  participants?: readonly ParticipantFactory[];
}

/**
 * Reads the settings from their one source and owns exactly one Task at a time: a new prompt
 * disposes the previous task and assembles a fresh one (task-assembly.ts). Routes the person's
 * answers, cancel and clear to the current task, and tells what changes through its events.
 */
export class Controller {
  readonly events: ControllerEvents;
  private task: Task | undefined;
  /** What the current task is (its prompt, when it started): the one owner the panel's header and History read. */
  private summary: TaskSummary | undefined;
  private taskDone: Promise<TaskOutcome> | undefined;
  /** The person's latest answer and the question (its row) it answered (shown-result.ts). */
  private lastAnswer: LastAnswer | undefined;
  private toldCheckpointsOff = false;
  private readonly workspace: WorkspaceContext;
  private readonly historyFollower: HistoryFollower;
  /** Outlives tasks, so the person's trust in a workspace's hooks does too. */
  readonly hooks: WorkspaceHooks;
  /** Outlives tasks, as the hooks' trust does: a question the person dismissed is not asked at every task. */
  readonly skillsTrust: SkillTrustMemory;
  /** The mode the person last chose (or a task opened in): the next task starts in it. */
  private chosenMode: AgentMode | undefined;

  constructor(private readonly options: ControllerOptions) {
    this.events = new ControllerEvents((error) => options.host.window.notify("error", `Tandem: ${errorText(error)}`));
    this.hooks = new WorkspaceHooks(options.hooks);
    this.skillsTrust = new SkillTrustMemory(options.skills?.trustWorkspace);
    this.workspace = new WorkspaceContext({ roots: () => options.host.workspace.roots, settings: () => this.getSettings(), rules: options.rules, workflows: options.workflows });
    this.historyFollower = new HistoryFollower({
      history: options.history,
      digests: options.digests,
      changed: (item) => this.events.historyItemChanged(item),
      // History's "this workspace" is the primary folder's.
      workspace: this.workspace.roots().primary.path,
    });
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
    return this.task?.scope.mode.current ?? this.chosenMode ?? this.getSettings().defaultMode;
  }

  /** The person's Plan/Act switch: the running task's mode (saved with it), and the next task's. */
  setMode(mode: AgentMode): void {
    if (!AGENT_MODES.includes(mode)) throw new Error(`Unknown mode ${JSON.stringify(mode)}: use ${AGENT_MODES.join(" or ")}.`);
    const changed = mode !== this.mode;
    this.chosenMode = mode;
    this.task?.scope.mode.set(mode);
    if (changed) this.events.modeChanged(mode);
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
    await this.clearTask();
    const { saved, savedMode } = await this.loadSaved(taskId);
    const item = await this.options.history?.get(taskId);
    const status = item?.status;
    // The conversation ran in its saved mode; a mode asked for now is a switch the model is told of.
    const task = await this.createTask(taskId, { current: options.mode ?? savedMode ?? this.mode, told: savedMode });
    const completed = status === "completed";
    // Until it ends, it keeps the status it was saved with.
    const first = { text: saved.chat[0]?.text ?? "", shown: saved.chat, status: status ?? "interrupted", startedAt: item?.startedAt };
    return this.run(task, () => task.resumeTask(saved, { completed }), first);
  }

  /** A saved task's chat, conversation and mode. */
  private async loadSaved(taskId: string): Promise<{ saved: { chat: ChatMessage[]; api: ApiMessage[] }; savedMode: AgentMode | undefined }> {
    const root = this.options.storageRoot;
    if (!root) throw new Error("Tasks are not saved in this session, so none can be resumed.");
    const storage = new TaskStorage(root, taskId);
    const saved = { chat: await storage.loadChatMessages(), api: await storage.loadApiHistory() };
    if (saved.chat.length === 0) throw new Error(`No saved task ${taskId} was found.`);
    return { saved, savedMode: await this.savedMode(storage) };
  }

  /**
   * The person edited one of their messages (row `ts` of task `taskId`: the open task, or a saved
   * one): the task goes back to where the conversation stood when it was said (message-edit.ts),
   * its files too when `restoreFiles`, and goes on from the edited text. Like a restore, not while
   * the open task is in the middle of a round.
   */
  async editMessage(taskId: string, ts: number, edit: { text: string; images: readonly string[]; restoreFiles: boolean }): Promise<RestoredFiles | undefined> {
    if (!edit.text.trim() && edit.images.length === 0) throw new Error("The edited message is empty: write something, or cancel the edit.");
    const open = this.task?.taskId === taskId ? this.task : undefined;
    if (open && !open.isFinished && !open.openQuestion) throw new Error("The task is still working: wait until it asks or stops (or cancel it), then edit.");
    const { saved, savedMode } = open ? { saved: { chat: open.messages.chatMessages, api: open.messages.apiHistory }, savedMode: open.scope.mode.current } : await this.loadSaved(taskId);
    const point = editPoint(saved, ts);
    let files: RestoredFiles | undefined;
    if (edit.restoreFiles) {
      const service = this.options.checkpoints;
      if (!service || !point.filesAt) throw new Error("This task has no checkpoint of its files at that message, so they cannot go back: edit without putting the files back.");
      files = await (await service.forTask(taskId)).restoreFiles(point.filesAt);
    }
    const first = saved.chat[0];
    // The edited first message keeps its row; its checkpoint mark only if the files are as it marks.
    const chat = point.first && first ? [{ ...first, text: edit.text, images: [...edit.images], checkpoint: edit.restoreFiles ? first.checkpoint : undefined }] : point.chat;
    if (point.spent) chat.push(point.spent);
    const startedAt = (await this.options.history?.get(taskId))?.startedAt;
    await this.clearTask();
    const task = await this.createTask(taskId, { current: savedMode ?? this.mode });
    const edited = { text: edit.text, images: edit.images, first: point.first, filesRestored: edit.restoreFiles, laterChanges: point.laterChanges };
    this.run(task, () => task.resumeTask({ chat, api: point.api }, { edited }), { text: chat[0]?.text ?? edit.text, shown: chat, status: "running", startedAt });
    return files;
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

  /**
   * `first` is what the History index holds while the task starts: a resumed task's saved chat,
   * status and start (kept as the index has it, so reopening never moves a task in History).
   */
  private run(task: Task, start: () => Promise<TaskOutcome>, first: TaskStart): Task {
    const summary: TaskSummary = { id: task.taskId, text: first.text, startedAt: first.startedAt ?? first.shown[0]?.ts ?? Date.now() };
    const shownMode = this.mode;
    this.task = task;
    this.summary = summary;
    this.chosenMode = task.scope.mode.current;
    this.events.taskChanged(summary);
    // A resumed task may open in another mode than the switch showed.
    if (task.scope.mode.current !== shownMode) this.events.modeChanged(task.scope.mode.current);
    void this.historyFollower.record(summary, first.shown, first.status);
    this.taskDone = start().then(async (outcome) => {
      await this.historyFollower.record(summary, task.messages.chatMessages, statusOf(outcome, task.state.abortReason, task.messages.chatMessages));
      this.events.taskFinished(task.taskId, outcome);
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
    const configuration = await options.settings.apiConfiguration();
    // The stall timeout is a setting; a configuration may set its own (the tests' short one).
    const streamIdleTimeoutMs = configuration.streamIdleTimeoutMs ?? this.getSettings().stallTimeoutSeconds * 1000;
    const storage = options.storageRoot ? new TaskStorage(options.storageRoot, taskId) : undefined;
    const notifyError = (error: unknown) => options.host.window.notify("error", `Tandem: ${errorText(error)}`);
    const mode = new TaskMode(startMode.current, { told: startMode.told, save: storage && ((m) => storage.saveMode(m)), onError: notifyError });
    const actApi = await options.createApiHandler({ ...configuration, streamIdleTimeoutMs });
    // Plan-mode requests go to the planModeModelId model when one is set, its client made on the first of them.
    const api = new ModeApiHandler(actApi, () => mode.current, () => {
      const planModel = this.getSettings().planModeModelId.trim();
      if (!planModel || planModel === configuration.modelId) return undefined;
      // What a server's list says of the Plan model, not the Act model's facts.
      const planApi = async () => options.createApiHandler({ ...configuration, modelId: planModel, listedModel: await options.settings.listedModel?.(planModel), streamIdleTimeoutMs });
      return planApi();
    });
    const guard = await this.workspace.guard();
    // The first task may start while the sandbox is still being checked: its commands wait for that anyway.
    const sandboxStatus = await options.sandbox?.ready();
    const environment = options.environment ?? { os: process.platform, shell: process.env.SHELL ?? "sh" };
    const roots = this.workspace.roots();
    const prompt: PromptFacts = { cwd: roots.primary.path, ...(roots.many ? { otherRoots: roots.list.slice(1) } : {}), ...environment, ...sandboxPrompt(sandboxStatus) };
    return assembleTask({
      taskId,
      api,
      host: options.host,
      settings: () => this.getSettings(),
      guard,
      mode,
      listener: this.events.chatListener((message, added) => this.historyFollower.follow(taskId, this.task?.taskId === taskId ? this.task.messages.chatMessages : undefined, message, added)),
      storage,
      commandSandbox: options.sandbox,
      tools: options.tools ?? TOOLS,
      prompt,
      slash: this.workspace.slashCommands(guard, options.mcp),
      rules: () => this.workspace.readRules(guard),
      hooks: this.hooks,
      skills: { ...options.skills, trustWorkspace: this.skillsTrust.trustWorkspace },
      mcp: options.mcp,
      mcpConnectWaitMs: options.mcpConnectWaitMs,
      checkpoints: this.taskCheckpoints(taskId),
      retry: options.retry,
      partialUpdateIntervalMs: options.partialUpdateIntervalMs,
      knownSecrets: [...environmentSecrets(), ...apiKeySecret(configuration.apiKey, configuration.provider)],
      attention: (notice) => this.events.attentionNeeded(notice),
    }, options.participants);
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
    const restored = await this.createTask(task.taskId, { current: task.scope.mode.current });
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
    const focusChain = this.task?.scope.participants.find(FocusChain);
    if (!focusChain) throw new Error("No task is open, so there is no checklist to edit.");
    return focusChain.fromPerson(items);
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
    if (await acceptShownResult(task, () => this.lastAnswer, (id, response) => this.answer(id, response))) await this.taskDone;
    await task.abortTask(reason);
    await this.taskDone;
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
    this.events.taskChanged(undefined);
  }

  /** Ends the current task and stops watching the workspace. */
  async dispose(): Promise<void> {
    await this.clearTask("shutdown");
    await this.workspace.dispose();
    this.events.dispose();
  }

  /** The rules as they are now, for the next request (and the panel's list). */
  readRules(guard?: PathGuard): Promise<LoadedRules> {
    return this.workspace.readRules(guard);
  }

  /** The slash commands of this workspace (core/slash), its workflows judged by `guard`. */
  slashCommands(guard: PathGuard): SlashCommands {
    return this.workspace.slashCommands(guard, this.options.mcp);
  }

  /** The workspace's folders as they are now (the next task's). */
  workspaceRoots(): WorkspaceRoots {
    return this.workspace.roots();
  }

  /** The guard tools are judged by now, for what the panel offers (the @-menu's files). */
  workspaceGuard(): Promise<PathGuard> {
    return this.workspace.guard();
  }

  get messages(): readonly ChatMessage[] {
    return this.task?.messages.chatMessages ?? [];
  }
}

/** What the system prompt says of the sandbox: read when the task starts, as the sandbox is then. */
function sandboxPrompt(status: SandboxStatus | undefined): { sandbox?: { network: string } } {
  if (!status?.active) return {};
  const network = status.network === "all" ? "any host but this machine's own services" : status.network === "none" ? "no host" : "only package registries and a few allowed hosts";
  return { sandbox: { network } };
}
