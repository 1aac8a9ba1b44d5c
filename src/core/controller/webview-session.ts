import type { ApiConfiguration } from "../../api/config";
import type { ApiHandler } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { FromWebviewMessage, PanelView, QuestionAnswer, TaskSummary, ToWebviewMessage, WebviewSettings } from "../../shared/protocol";
import { needsApiKey, webviewSettings } from "./webview-settings";
import { globalHooksFolder, globalRulesFolder, globalWorkflowsFolder } from "../storage/paths";
import { TaskHistory } from "../storage/task-history";
import { responseTo } from "../task/question-answers";
import { Controller, type ChatChange } from "./index";
import type { DisposableLike } from "../util/disposable";
import type { SecretStore, SettingsStore } from "./stores";
import { errorText } from "../util/error-text";
import { StreamDeltas } from "./stream-deltas";
import { storedSettings } from "./settings-source";
import { describeRestore, RESTORE_SCOPES, type CheckpointService, type RestoreScope } from "./checkpoints";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpHub } from "../mcp";
import { McpPanel, type McpPanelHost } from "./mcp-panel";
import { NO_MCP } from "./mcp-views";
import type { HooksOptions } from "../hooks";
import { WorkspaceSearch } from "../context/workspace-search";
import { checkpointName, checkpointNumber } from "../../shared/checkpoints";
import type { ChatMessage } from "../../shared/messages";
export { CommandSandbox } from "../sandbox/command-sandbox";
export { McpServerConfiner } from "../sandbox/mcp-server-confiner";
export { McpHub } from "../mcp";
export type { McpHubOptions, McpServerSandbox } from "../mcp";
export type { McpPanelHost } from "./mcp-panel";
export { gitCheckpoints } from "../checkpoints/checkpoint-service";

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
  sandbox?: CommandSandbox;
  /** The workspace's checkpoint store; none runs tasks without checkpoints. */
  checkpoints?: CheckpointService;
  /** Builds the provider client; the default loads the SDKs on the first task. */
  createApiHandler?: (config: ApiConfiguration) => ApiHandler | Promise<ApiHandler>;
  /** The MCP servers (owned by the host, which disposes them after the session); none: no MCP. */
  mcp?: McpHub;
  /** The hub's files and what the MCP view's file actions need of the host. */
  mcpHost?: McpPanelHost;
  /** How a workspace's hooks are trusted (the global ones are `<storageRoot>/hooks/`); none: workspace hooks never run. */
  hooks?: Omit<HooksOptions, "globalFolder">;
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

  constructor(private readonly deps: WebviewSessionDeps) {
    this.history = new TaskHistory(deps.storageRoot, (error) => this.notice("error", errorText(error)));
    this.controller = new Controller({
      host: deps.host,
      createApiHandler: deps.createApiHandler ?? (async (config) => (await import("../../api")).buildApiHandler(config)),
      settings: storedSettings(deps.settings, deps.secrets),
      storageRoot: deps.storageRoot,
      history: this.history,
      sandbox: deps.sandbox,
      checkpoints: deps.checkpoints,
      mcp: deps.mcp,
      rules: { globalFolder: globalRulesFolder(deps.storageRoot) },
      workflows: { globalFolder: globalWorkflowsFolder(deps.storageRoot) },
      hooks: { globalFolder: globalHooksFolder(deps.storageRoot), ...deps.hooks },
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
    this.workspaceSearch = new WorkspaceSearch({ root: deps.host.workspace.root, guard: () => this.controller.workspaceGuard() });
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
      case "deleteTask":
        return this.deleteTask(message.id);
      case "updateAgentSettings":
        await this.deps.settings.updateAgentSettings(message.settings);
        await this.postSettings();
        // A switched rules file: the list shows it at once.
        if (message.settings.ruleToggles !== undefined) await this.postRules();
        return;
      case "updateApiSettings":
        await this.deps.settings.updateApiSettings(message.settings);
        return this.postSettings();
      case "setApiKey":
        await this.deps.secrets.setApiKey(message.provider, message.apiKey.trim());
        return this.postSettings();
      case "openFile":
        return this.deps.openFile(message.path);
      case "compareCheckpoint":
        return this.compareCheckpoint(message.ts);
      case "restoreCheckpoint":
        if (!RESTORE_SCOPES.includes(message.scope)) throw new Error(`Unknown restore scope ${JSON.stringify(message.scope)}; expected ${RESTORE_SCOPES.join(", ")}.`);
        return this.restoreCheckpoint(message.ts, message.scope);
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

  private async deleteTask(id: string): Promise<void> {
    if (this.controller.currentTask?.taskId === id) await this.controller.clearTask();
    await this.history.delete(id);
    // Its checkpoints go with it; what other tasks share stays.
    await (await this.deps.checkpoints?.forTask(id))?.deleteTask();
    this.deps.post({ type: "historyItemRemoved", id });
  }

  private async restoreCheckpoint(ts: number, scope: RestoreScope): Promise<void> {
    const files = await this.controller.restoreCheckpoint(ts, scope);
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

  /** No task starts without the key its provider needs: the settings view opens instead. */
  private async canStartTask(): Promise<boolean> {
    const api = this.deps.settings.getApiSettings();
    if (!needsApiKey(api, Boolean(await this.deps.secrets.getApiKey(api.provider)))) return true;
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

  insertText(text: string): void {
    this.deps.post({ type: "insertText", text });
  }

  async dispose(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.mcpPanel?.dispose();
    await this.controller.dispose();
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
    this.deps.post({ type: "state", state: { task: this.controller.currentSummary, messages, question, running: this.controller.isRunning, settings, history, mcp: this.mcpPanel?.state() ?? NO_MCP, mode: this.controller.mode, restoring: this.restoring, workspace: this.deps.host.workspace.root } });
  }

  private async postSettings(): Promise<void> {
    this.deps.post({ type: "settingsChanged", settings: await this.webviewSettings() });
  }

  private webviewSettings(): Promise<WebviewSettings> {
    return webviewSettings(this.deps.settings, this.deps.secrets);
  }

  private notice(level: "info" | "warning" | "error", text: string): void {
    this.deps.post({ type: "notice", level, text });
  }
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
