import type { ApiConfiguration } from "../../api/config";
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { FromWebviewMessage, PanelView, QuestionAnswer, TaskSummary, ToWebviewMessage, WebviewSettings } from "../../shared/protocol";
import { hasModel, missingFields, needsApiKey, webviewSettings } from "./webview-settings";
import { ProviderModels, type HostModelLister } from "./provider-models";
import { testConnection, type ConnectionResult } from "./connection-test";
import { memoryProviderMemory, withProviderSwitch, type ProviderMemory } from "./provider-switch";
import type { ModelListStore } from "../../api/model-list-cache";
import { globalHooksFolder, globalRulesFolder, globalSkillsFolder, globalWorkflowsFolder } from "../storage/paths";
import { TaskHistory } from "../storage/task-history";
import { TaskDigests } from "../history/task-digests";
import { HistoryPanel, isHistoryMessage } from "./history-panel";
import { responseTo } from "../task/question-answers";
import { Controller, type ChatChange } from "./index";
import type { DisposableLike } from "../util/disposable";
import type { SecretStore, SettingsStore } from "./stores";
import { errorText } from "../util/error-text";
import { StreamDeltas } from "./stream-deltas";
import { storedSettings, type SettingsSource } from "./settings-source";
import { describeRestore, RESTORE_SCOPES, type CheckpointService, type RestoreScope } from "./checkpoints";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpHub } from "../mcp";
import { McpPanel, type McpPanelHost } from "./mcp-panel";
import { NO_MCP } from "./mcp-views";
import type { HooksOptions } from "../hooks";
import type { SkillsOptions } from "../skills/task-skills";
import { WorkspaceSearch } from "../context/workspace-search";
import { checkpointName, checkpointNumber } from "../../shared/checkpoints";
import type { ChatMessage } from "../../shared/messages";

export { CommandSandbox } from "../sandbox/command-sandbox";
export { McpServerConfiner } from "../sandbox/mcp-server-confiner";
export { McpHub } from "../mcp";
export type { McpHubOptions, McpServerSandbox } from "../mcp";
export type { McpPanelHost } from "./mcp-panel";
export { gitCheckpoints } from "../checkpoints/checkpoint-service";
// For the VS Code host, which builds the vscode-lm handler itself: the core's ApiError (the core
// tells failures apart with instanceof, across both bundles) and every other provider's handler.
export { ApiError } from "../../api/errors";
export const buildApiHandler = async (config: ApiConfiguration): Promise<ApiHandler> => (await import("../../api")).buildApiHandler(config);

export interface WebviewSessionDeps {
  /** Sends to the webview; dropped when no view is open (it asks for the state when it loads). */
  post(message: ToWebviewMessage): void;
  /** Which task runs now, if any (the VS Code host remembers it, to reopen it after a window reload). */
  runningTaskChanged?(taskId: string | undefined): void;
  host: HostBridge;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Where task histories and the history index are kept. */
  storageRoot: string;
  openFile(path: string): Promise<void>;
  /** A save dialog, then the file written: the path, or undefined when the person cancelled (History's export). None: no export. */
  saveFile?(fileName: string, content: string): Promise<string | undefined>;
  sandbox?: CommandSandbox;
  /** The workspace's checkpoint store; none runs tasks without checkpoints. */
  checkpoints?: CheckpointService;
  /** Where the model lists read from servers are kept between sessions; memory when unset. */
  modelListStore?: ModelListStore;
  /** Each provider's last model and base URL, given back when the person switches back to it; memory when unset. */
  providerMemory?: ProviderMemory;
  /** VS Code's language models (the vscode-lm provider); none outside VS Code. */
  vscodeModels?: HostModelLister;
  /** Builds the provider client; the default loads the SDKs on the first task. */
  createApiHandler?: (config: ApiConfiguration) => ApiHandler | Promise<ApiHandler>;
  /** The MCP servers (owned by the host, which disposes them after the session); none: no MCP. */
  mcp?: McpHub;
  /** The hub's files and what the MCP view's file actions need of the host. */
  mcpHost?: McpPanelHost;
  /** How a workspace's hooks are trusted (the global ones are `<storageRoot>/hooks/`); none: workspace hooks never run. */
  hooks?: Omit<HooksOptions, "globalFolder">;
  /** How a workspace's skills are trusted (the global ones are `<storageRoot>/skills/`); none: workspace skills are never offered. */
  skills?: Omit<SkillsOptions, "globalFolder">;
  /** False while the editor does not trust the workspace (Restricted Mode): its workflows stay off. */
  workspaceTrusted?: () => boolean;
  /** Passed to the Controller (tests shorten retries and throttling). */
  controllerOptions?: Partial<Pick<ConstructorParameters<typeof Controller>[0], "retry" | "partialUpdateIntervalMs" | "environment">>;
}

/**
 * The host side of the chat panel, free of any editor API: it owns the Controller, turns its
 * events into protocol deltas for the webview, and carries out what the webview asks. The full
 * state goes out only when the webview (re)loads; after that, one message per change.
 */
export class WebviewSession {
  readonly controller: Controller;
  private readonly history: TaskHistory;
  /** History's search, stars, deletes and exports. */
  private readonly historyPanel: HistoryPanel;
  /** The Controller's events and the settings store's, heard until the session is disposed. */
  private readonly subscriptions: DisposableLike[];
  /** What the webview holds of the rows streaming now, so their updates go as deltas. */
  private readonly deltas = new StreamDeltas();
  private readonly mcpPanel: McpPanel | undefined;
  /** The task shown last, so its end cancels what its servers asked meanwhile. */
  private shownTaskId: string | undefined;
  /** The @-menu's files and folders, kept between keystrokes. */
  private readonly workspaceSearch: WorkspaceSearch;
  /** The interrupted task is being reopened (reopenInterruptedTask) and its chat is not loaded yet. */
  private restoring = false;
  /** The models each provider offers: the catalogue's, a server's list, VS Code's. */
  private readonly providerModels: ProviderModels;
  private readonly createApiHandler: (config: ApiConfiguration) => ApiHandler | Promise<ApiHandler>;
  private readonly controllerSettings: SettingsSource;
  private readonly providerMemory: ProviderMemory;
  /** The settings view's messages in the order they came (settingsMessage). */
  private settingsWrites: Promise<void> = Promise.resolve();

  constructor(private readonly deps: WebviewSessionDeps) {
    this.history = new TaskHistory(deps.storageRoot, (error) => this.notice("error", errorText(error)));
    const digests = new TaskDigests(deps.storageRoot, (error) => this.notice("error", errorText(error)));
    this.providerModels = new ProviderModels({
      store: deps.modelListStore,
      secrets: deps.secrets,
      vscodeModels: deps.vscodeModels,
      // A list read in the background arrives on its own: nothing awaits it to hear a failure.
      onListChanged: () => void this.postSettings().catch((error: unknown) => this.notice("error", errorText(error))),
    });
    this.providerMemory = deps.providerMemory ?? memoryProviderMemory();
    this.createApiHandler = deps.createApiHandler ?? (async (config) => (await import("../../api")).buildApiHandler(config));
    this.controllerSettings = storedSettings(deps.settings, deps.secrets, (api) => this.providerModels.listedInfo(api));
    this.controller = new Controller({
      host: deps.host,
      createApiHandler: this.createApiHandler,
      settings: this.controllerSettings,
      storageRoot: deps.storageRoot,
      history: this.history,
      digests,
      sandbox: deps.sandbox,
      checkpoints: deps.checkpoints,
      mcp: deps.mcp,
      rules: { globalFolder: globalRulesFolder(deps.storageRoot) },
      workflows: { globalFolder: globalWorkflowsFolder(deps.storageRoot), ...(deps.workspaceTrusted ? { workspace: deps.workspaceTrusted } : {}) },
      hooks: { globalFolder: globalHooksFolder(deps.storageRoot), ...deps.hooks },
      skills: { globalFolder: globalSkillsFolder(deps.storageRoot), ...deps.skills },
      ...deps.controllerOptions,
    });
    const { events } = this.controller;
    this.subscriptions = [
      events.onDidChangeChat((change) => this.chatChanged(change)),
      events.onDidChangeQuestion((question) => this.deps.post({ type: "questionChanged", question })),
      events.onDidChangeTask((task) => this.taskChanged(task)),
      events.onDidFinishTask(({ taskId }) => this.taskFinished(taskId)),
      events.onDidChangeMode((mode) => this.deps.post({ type: "modeChanged", mode })),
      events.onDidChangeHistoryItem((item) => this.deps.post({ type: "historyItemChanged", item })),
      // The Controller reads the store itself; the panel only needs to be told.
      deps.settings.onDidChange(() => void this.postSettings()),
    ];
    this.historyPanel = new HistoryPanel({
      history: this.history,
      digests,
      storageRoot: deps.storageRoot,
      workspace: this.controller.workspaceRoots().primary.path,
      post: deps.post,
      notice: (level, text) => this.notice(level, text),
      openTaskId: () => this.controller.currentTask?.taskId,
      closeOpenTask: () => this.controller.clearTask(),
      checkpoints: deps.checkpoints,
      saveFile: deps.saveFile,
    });
    this.workspaceSearch = new WorkspaceSearch({ roots: () => this.controller.workspaceRoots(), guard: () => this.controller.workspaceGuard() });
    if (deps.mcp) this.mcpPanel = new McpPanel(deps.mcp, deps.mcpHost, deps.post, () => this.controller.currentTask?.taskId);
  }

  // ------------------------------------------------------------ from the webview

  async handle(message: FromWebviewMessage): Promise<void> {
    try {
      await this.route(message);
    } catch (error) {
      this.notice("error", errorText(error));
    }
  }

  private async route(message: FromWebviewMessage): Promise<void> {
    if (isSettingsMessage(message)) return this.settingsMessage(message);
    if (isHistoryMessage(message)) return this.historyPanel.handle(message);
    switch (message.type) {
      case "ready":
        return this.postState();
      case "newTask":
        return this.newTask(message.text, [...message.images]);
      case "answer":
        return this.answer(message.answer);
      case "cancelTask":
        return this.cancelTask();
      case "setMode":
        return this.controller.setMode(message.mode);
      case "clearTask":
        return this.controller.clearTask();
      case "resumeTask":
        return this.resumeTask(message.id);
      case "openFile":
        return this.deps.openFile(message.path);
      case "compareCheckpoint":
        return this.compareCheckpoint(message.ts);
      case "restoreCheckpoint":
        if (!RESTORE_SCOPES.includes(message.scope)) throw new Error(`Unknown restore scope ${JSON.stringify(message.scope)}; expected ${RESTORE_SCOPES.join(", ")}.`);
        return this.restoreCheckpoint(message.ts, message.scope);
      case "editMessage":
        return this.editMessage(message);
      case "checkpointStore":
        if (message.action === "clean") await this.deps.checkpoints?.clean();
        return this.deps.post({ type: "checkpointStore", bytes: (await this.deps.checkpoints?.size()) ?? 0 });
      case "rules":
        return this.postRules();
      case "mcpAction":
        if (!this.mcpPanel) throw new Error("MCP servers are not available here.");
        return this.mcpPanel.act(message.action);
      case "mcpElicitationAnswer":
        return this.mcpPanel?.answer(message.answer);
      case "searchWorkspace":
        return this.searchWorkspace(message.query, message.requestId);
      case "slashCommands":
        return this.deps.post({ type: "slashCommands", commands: await this.controller.slashCommands(await this.controller.workspaceGuard()).list() });
      case "editFocusChain":
        return this.controller.editFocusChain(message.items);
    }
  }

  /** What the settings view asks. */
  /**
   * What the settings view asks, one after another: a change is stored before the next message
   * reads the settings (a base URL typed, then Test connection or a task at once).
   */
  private settingsMessage(message: SettingsMessage): Promise<void> {
    // Test connection reads the settings once the changes before it are stored; its request holds up no later change.
    if (message.type === "testConnection") return this.testConnection(this.settingsWrites.then(() => this.controllerSettings.apiConfiguration()));
    const done = this.settingsWrites.then(() => this.applySettingsMessage(message));
    this.settingsWrites = done.catch(() => undefined);
    return done;
  }

  private async applySettingsMessage(message: Exclude<SettingsMessage, { type: "testConnection" }>): Promise<void> {
    switch (message.type) {
      case "updateAgentSettings":
        await this.deps.settings.updateAgentSettings(message.settings);
        await this.postSettings();
        // A switched rules file: the list shows it at once.
        if (message.settings.ruleToggles !== undefined) await this.postRules();
        return;
      case "updateApiSettings":
        await this.deps.settings.updateApiSettings(await withProviderSwitch(this.deps.settings.getApiSettings(), message.settings, this.providerMemory));
        return this.postSettings();
      case "refreshModels":
        return this.refreshModels();
      case "setApiKey":
        await this.deps.secrets.setApiKey(message.provider, message.apiKey.trim());
        return this.postSettings();
    }
  }

  private async restoreCheckpoint(ts: number, scope: RestoreScope): Promise<void> {
    const files = await this.controller.restoreCheckpoint(ts, scope);
    if (files) this.notice("info", describeRestore(files));
  }

  private async editMessage(message: Extract<FromWebviewMessage, { type: "editMessage" }>): Promise<void> {
    const { ts, text, images } = message;
    if (typeof ts !== "number" || typeof text !== "string" || !Array.isArray(images) || !images.every((image) => typeof image === "string")) {
      throw new Error("The edited message did not arrive whole: try the edit again.");
    }
    const taskId = this.controller.currentTask?.taskId;
    if (!taskId) throw new Error("No task is open, so there is no message to edit.");
    const files = await this.controller.editMessage(taskId, ts, { text, images: [...images], restoreFiles: message.restoreFiles === true });
    if (files) this.notice("info", describeRestore(files));
  }

  /** The diff of a step's checkpoint against the workspace now, in the editor's diff view. */
  private async compareCheckpoint(ts: number): Promise<void> {
    const changes = await this.controller.checkpointChanges(ts);
    if (changes.length === 0) return this.notice("info", "No file differs from that checkpoint: the workspace is as it was then.");
    const diffView = this.deps.host.diffView;
    if (!diffView?.showChanges) return this.notice("info", `${changes.length} files differ from that checkpoint: ${changes.map((c) => c.path).join(", ")}.`);
    await diffView.showChanges(compareTitle(this.controller.messages, ts), changes);
  }

  // ------------------------------------------------------------ commands

  async newTask(text: string, images: string[] = []): Promise<void> {
    if (await this.canStartTask()) await this.controller.newTask(text, images);
  }

  /** Reads the selected provider's model list again; the picker shows the read under way, then its result. */
  async refreshModels(): Promise<void> {
    const read = this.providerModels.refresh(this.deps.settings.getApiSettings());
    await this.postSettings();
    await read;
    await this.postSettings();
  }

  /** VS Code's set of models changed (a sign-in, an extension installed): the picker reads it again if it shows them. */
  async vscodeModelsChanged(): Promise<void> {
    if (this.deps.settings.getApiSettings().provider === "vscode-lm") await this.refreshModels();
  }

  /** The settings view's Test connection: the answer goes to the panel, never a throw. */
  private async testConnection(configuration: Promise<ApiConfiguration>): Promise<void> {
    let result: ConnectionResult;
    let provider = this.deps.settings.getApiSettings().provider;
    try {
      const tested = await configuration;
      provider = tested.provider;
      const handler = await this.createApiHandler(tested);
      result = await testConnection(handler);
    } catch (error) {
      // Settings that cannot make a client (no model chosen, a bad URL) say so here.
      result = { ok: false, text: errorText(error) };
    }
    this.deps.post({ type: "connectionTested", provider, ...result });
  }

  /** No task starts without the key or the settings its provider needs: the settings view opens instead. */
  private async canStartTask(): Promise<boolean> {
    // A change the person just made is in the settings the task reads.
    await this.settingsWrites;
    const api = this.deps.settings.getApiSettings();
    const ready = !needsApiKey(api, Boolean(await this.deps.secrets.getApiKey(api.provider))) && missingFields(api).length === 0 && hasModel(api);
    if (ready) return true;
    // The panel says so for as long as it is true (settings.needsApiKey), and holds what was typed.
    this.showView("settings");
    return false;
  }

  /** The command palette's (and keybinding's) Plan/Act toggle. */
  toggleMode(): void {
    this.controller.setMode(this.controller.mode === "plan" ? "act" : "plan");
  }

  async cancelTask(): Promise<void> {
    await this.controller.cancelTask();
  }

  /** Reopens a saved task (from History, or the one a reload interrupted); a failure is told to the panel. */
  async resumeTask(id: string): Promise<void> {
    try {
      if (await this.canStartTask()) await this.controller.resumeTask(id);
    } catch (error) {
      this.notice("error", errorText(error));
    }
  }

  /**
   * Reopens the task a window reload interrupted. Until its chat is loaded (or the reopening
   * failed) the panel is told it is restoring, so it offers no new task meanwhile. Returns whether
   * that task is now the open one; a task already open is left alone.
   */
  async reopenInterruptedTask(id: string): Promise<boolean> {
    const openId = () => this.controller.currentTask?.taskId;
    if (openId() !== undefined) return openId() === id;
    this.setRestoring(true);
    try {
      await this.resumeTask(id);
    } finally {
      this.setRestoring(false);
    }
    return openId() === id;
  }

  private setRestoring(restoring: boolean): void {
    if (this.restoring === restoring) return;
    this.restoring = restoring;
    this.deps.post({ type: "restoring", restoring });
  }

  /** Something outside the panel changed what its settings show (a key stored from the command palette). */
  refreshSettings(): Promise<void> {
    return this.postSettings();
  }

  /** Delivers an answer to the question it names, or hands it back: it is never applied to another. */
  private answer(answer: QuestionAnswer): void {
    const question = this.controller.openQuestion;
    if (question?.id !== answer.questionId) {
      const reason = question ? "That question was already closed; Tandem now asks something else." : "That question was already closed.";
      return this.deps.post({ type: "answerRefused", answer, reason });
    }
    const response = responseTo(question, answer);
    if ("refused" in response) return this.deps.post({ type: "answerRefused", answer, reason: response.refused });
    this.controller.answer(question.id, response);
  }

  /** The hub's `elicit` callback: the form shows in the panel; without MCP here, declined. */
  elicit(server: string, params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult> {
    return this.mcpPanel ? this.mcpPanel.elicitations.elicit(server, params, signal) : Promise.resolve({ action: "decline" });
  }

  showView(view: PanelView): void {
    this.deps.post({ type: "showView", view });
  }

  focusInput(): void {
    this.deps.post({ type: "focusInput" });
  }

  /** A notification's "Show": the keyboard goes to question `questionId` of task `taskId` if it is still open; false when it is not. */
  focusQuestion(taskId: string, questionId: number): boolean {
    if (this.controller.currentTask?.taskId !== taskId || this.controller.openQuestion?.id !== questionId) return false;
    this.deps.post({ type: "focusQuestion", questionId });
    return true;
  }

  insertText(text: string): void {
    this.deps.post({ type: "insertText", text });
  }

  async dispose(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.mcpPanel?.dispose();
    await this.controller.dispose();
    await this.historyPanel.flush();
  }

  private async searchWorkspace(query: unknown, requestId: unknown): Promise<void> {
    if (typeof query !== "string" || typeof requestId !== "number") throw new Error("searchWorkspace needs a query string and a numeric requestId.");
    const results = await this.workspaceSearch.search(query.slice(0, 500));
    this.deps.post({ type: "workspaceResults", requestId, query, results });
  }

  private async postRules(): Promise<void> {
    const { files, warnings } = await this.controller.readRules();
    this.deps.post({ type: "rules", rules: { files, warnings } });
  }

  // ------------------------------------------------------------ from the Controller

  private chatChanged(change: ChatChange): void {
    switch (change.kind) {
      case "added":
        this.deltas.added(change.message);
        return this.deps.post({ type: "messageAdded", message: change.message });
      case "updated":
        for (const update of this.deltas.updated(change.message)) this.deps.post(update);
        return;
      case "removed":
        this.deltas.removed(change.timestamps);
        return this.deps.post({ type: "messagesRemoved", timestamps: change.timestamps });
      case "loaded":
        // At once, not in the next full state (which waits for settings and history): the question
        // that follows a load must not show over an empty chat.
        this.deltas.reset();
        this.deps.post({ type: "messagesLoaded", messages: [...change.messages] });
        // A reopened task is on screen once its chat is.
        return this.setRestoring(false);
    }
  }

  private taskChanged(task: TaskSummary | undefined): void {
    this.deltas.reset();
    if (this.shownTaskId && this.shownTaskId !== task?.id) this.mcpPanel?.elicitations.taskEnded(this.shownTaskId);
    this.shownTaskId = task?.id;
    this.deps.post({ type: "taskChanged", task });
    this.deps.post({ type: "taskRunning", running: task !== undefined });
    this.deps.runningTaskChanged?.(task?.id);
  }

  private taskFinished(taskId: string): void {
    this.mcpPanel?.elicitations.taskEnded(taskId);
    this.deps.post({ type: "taskRunning", running: false });
    this.deps.runningTaskChanged?.(undefined);
  }

  // ------------------------------------------------------------ state

  private async postState(): Promise<void> {
    const settings = await this.webviewSettings();
    const history = await this.history.list();
    // The chat as it is now, not before the awaits: deltas posted meanwhile (a task being reopened) reached the page first.
    const messages = this.controller.messages;
    // The page holds only what this state carries: the next update of a streaming row goes whole.
    this.deltas.reset();
    const question = this.controller.openQuestion;
    this.deps.post({ type: "state", state: { task: this.controller.currentSummary, messages, question, running: this.controller.isRunning, settings, history, mcp: this.mcpPanel?.state() ?? NO_MCP, mode: this.controller.mode, restoring: this.restoring, workspace: this.controller.workspaceRoots().primary.path } });
  }

  private async postSettings(): Promise<void> {
    this.deps.post({ type: "settingsChanged", settings: await this.webviewSettings() });
  }

  private webviewSettings(): Promise<WebviewSettings> {
    return webviewSettings(this.deps.settings, this.deps.secrets, this.providerModels);
  }

  private notice(level: "info" | "warning" | "error", text: string): void {
    this.deps.post({ type: "notice", level, text });
  }
}

/** The messages of the settings view. */
const SETTINGS_MESSAGES = ["updateAgentSettings", "updateApiSettings", "refreshModels", "testConnection", "setApiKey"] as const;
type SettingsMessage = Extract<FromWebviewMessage, { type: (typeof SETTINGS_MESSAGES)[number] }>;

function isSettingsMessage(message: FromWebviewMessage): message is SettingsMessage {
  return (SETTINGS_MESSAGES as readonly string[]).includes(message.type);
}

/**
 * The diff tab's title: which checkpoint it compares with the workspace now, named and numbered as
 * the panel's markers and `tandem checkpoints list` do, with the time it was made ("Tandem:
 * Checkpoint 2 (14:03:07) ↔ now").
 */
export function compareTitle(chat: readonly ChatMessage[], ts: number): string {
  const number = checkpointNumber(chat, ts);
  const name = number === undefined ? "Checkpoint" : checkpointName(number);
  const time = new Date(ts).toTimeString().slice(0, 8);
  return `Tandem: ${name} (${time}) ↔ now`;
}
