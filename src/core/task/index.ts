import { Mutex } from "async-mutex";
import { ApiError, isApiError } from "../../api/errors";
import type { ApiMessage, ApiStream, ContentBlock } from "../../api/types";
import type { AskKind, AskResponse, ChatMessage, SayKind } from "../../shared/messages";
import type { OpenQuestion } from "../../shared/protocol";
import { IncrementalAssistantMessageParser } from "../assistant-message/incremental-parser";
import { formatResponse } from "../prompts/responses";
import { AnswerAssembler } from "./answer-assembler";
import { AnswerPresenter } from "./answer-presenter";
import { ApiRequestRetrier, type ApiRequestRetrierDeps, type RetryDecision } from "./api-request-retrier";
import { ChatChannel, type AskExtra, type SayExtra } from "./chat-channel";
import { MessageState } from "./message-state";
import { readAnswer, type AnswerReaderDeps } from "./answer-reader";
import { BackgroundCommands } from "./background-commands";
import { TaskCommands } from "../sandbox/task-commands";
import { TaskState, type AbortReason } from "./task-state";
import { ToolExecutor } from "./tool-executor";
import { toolGrammar, toolSpecs } from "./tools/registry";
import { errorText } from "../util/error-text";
import { imageBlockFromDataUrl } from "../util/image-block";
import { checkMistakeLimit } from "./mistake-limit";
import { RequestRow } from "./request-row";
import { askToGoOn, reopenChat } from "./resume";
import { ended, type AttemptOutcome, type RoundOutcome, type TaskOutcome } from "./round-outcome";
import type { TaskParams } from "./task-params";
import { TaskCheckpoints } from "./task-checkpoints";
import { McpInLoop } from "./mcp-in-loop";
import { RulesInLoop } from "./rules-in-loop";
import { WorkspaceHooks, type HooksInLoop } from "../hooks";
import { EnvironmentInLoop, supersededDetails } from "./environment-in-loop";
import { MentionExpander } from "../context/mentions";
import { PersonText, SlashCommands } from "../slash";
import { FocusChain } from "./focus-chain";
import { withTaskProgressParam, withTaskProgressSpec } from "./focus-chain-prompt";
import { ContextInLoop } from "./context-in-loop";
import { TaskMode, toolsForMode, withModeReminder, type AgentMode } from "./mode";

export type { TaskOutcome } from "./round-outcome";
export type { CheckpointRepository, TaskParams } from "./task-params";

/**
 * One task: created by the Controller for one prompt and thrown away afterwards. It drives the
 * rounds (initiateTaskLoop → recursivelyMakeClineRequests → attemptApiRequest), presents the
 * streamed answer block by block, and talks to the person only through ask and say.
 */
export class Task {
  readonly taskId: string;
  readonly state = new TaskState();
  readonly messages: MessageState;
  private readonly stateMutex = new Mutex();
  private readonly abortController = new AbortController();
  private readonly toolExecutor: ToolExecutor;
  /** Commands the person let run on; their news goes with each request. */
  private readonly backgroundCommands = new BackgroundCommands();
  /** Every command the task runs goes through it (the sandbox, the task's temp folder). */
  private readonly commands: TaskCommands;
  private readonly parser: IncrementalAssistantMessageParser;
  private readonly retrierDeps: ApiRequestRetrierDeps;
  private readonly readerDeps: AnswerReaderDeps;
  /** This round's: each round starts with a fresh budget of automatic retries. */
  private retrier: ApiRequestRetrier;
  private readonly presenter: AnswerPresenter;
  private readonly chat: ChatChannel;
  /** How the loop ended, once recursivelyMakeClineRequests returned didEndLoop. */
  private endedWith: TaskOutcome | undefined;
  /** Set once the task is over for good, its messages flushed. */
  private result: TaskOutcome | undefined;
  private disposed = false;
  /** Started with the task (startTask, resumeTask), when the params open checkpoints. */
  private checkpoints: TaskCheckpoints | undefined;
  private readonly mcp: McpInLoop;
  private readonly rules: RulesInLoop;
  /** The hook points' calls (core/hooks/in-loop.ts). */
  readonly hooks: HooksInLoop;
  private readonly environment: EnvironmentInLoop;
  /** The person's @-mentions, expanded for the model wherever their text reaches it. */
  private readonly mentions: MentionExpander;
  /** The person's text for the model: a leading slash command expanded, then the mentions. */
  private readonly personText: PersonText;
  private readonly focusChain: FocusChain;
  private readonly context: ContextInLoop;
  /** Plan or Act (task/mode.ts): the Controller switches it; it is saved with the task. */
  readonly mode: TaskMode;

  constructor(private readonly params: TaskParams) {
    this.taskId = params.taskId;
    this.mode = params.mode ?? new TaskMode("act");
    const report = (error: unknown) => this.reportInternalError(error);
    this.messages = new MessageState(params.listener, params.storage, report);
    const announce = (question: OpenQuestion | undefined) => params.listener.onQuestionChanged?.(question);
    this.chat = new ChatChannel(this.messages, (fn) => this.withStateLock(fn), () => this.state.abort, report, announce);
    // Native mode: tool calls arrive apart from the text, so no XML tag in it is a tool.
    const native = params.settings().toolCallMode === "native";
    this.parser = new IncrementalAssistantMessageParser(native ? new Map() : withTaskProgressParam(toolGrammar(params.tools)));
    const ignore = params.ignore ?? { isIgnored: () => false };
    this.commands = new TaskCommands(params.host.terminal, params.commandSandbox, [params.host.workspace.root], ignore);
    const signal = this.abortController.signal;
    this.mcp = new McpInLoop({ mcp: params.mcp, waitMs: params.mcpConnectWaitMs, signal, toolNames: Object.keys(params.tools), note: (text) => this.say("info", text) });
    this.rules = new RulesInLoop({ read: params.rules, note: (text) => this.say("info", text) });
    const hookDeps = { taskId: params.taskId, roots: [params.host.workspace.root], settings: params.settings, commands: this.commands };
    this.hooks = (params.hooks ?? new WorkspaceHooks()).forTask({ ...hookDeps, say: (kind, text, extra) => this.say(kind, text, extra) });
    this.focusChain = new FocusChain({ state: this.state, settings: params.settings, say: (kind, text, extra) => this.say(kind, text, extra), withStateLock: (fn) => this.withStateLock(fn) });
    this.context = new ContextInLoop({ api: params.api, messages: this.messages, signal, settings: params.settings, round: () => this.state.apiRequestCount, say: (kind, text, extra) => this.say(kind, text, extra), withStateLock: (fn) => this.withStateLock(fn), beforeCompact: (reason, messages) => this.hooks.preCompact(reason, messages) });
    this.environment = new EnvironmentInLoop({
      host: params.host,
      guard: ignore,
      signal,
      takeBackgroundNews: () => this.backgroundCommands.takeReport(),
      chat: () => this.messages.chatMessages,
      contextWindow: () => params.api.getModel().info.contextWindow,
      mode: () => (this.mode.current === "plan" ? "Plan (read-only: explore and answer with plan_mode_respond)" : "Act"),
      warn: (text) => params.host.window.notify("warning", text),
    });
    this.toolExecutor = new ToolExecutor({
      tools: params.tools,
      cwd: params.host.workspace.root,
      host: params.host,
      signal: this.abortController.signal,
      background: this.backgroundCommands,
      commands: this.commands,
      state: this.state,
      ignore,
      settings: params.settings,
      ask: (kind, text, extra) => this.ask(kind, text, extra),
      say: (kind, text, extra) => this.say(kind, text, extra).then(() => undefined),
      withStateLock: (fn) => this.withStateLock(fn),
      beforeChange: () => this.checkpoints?.initialCheckpointCommitPromise,
      mcp: params.mcp,
      aliasCall: (call) => this.mcp.aliasCall(call),
      hooks: this.hooks,
      withMentions: (text) => this.personText.forModel(text),
      focusChain: this.focusChain,
      reads: this.context.reads,
      mode: () => this.mode.current,
    });
    const fetchUrl = (url: string) => this.toolExecutor.callTool("web_fetch", { url });
    this.mentions = new MentionExpander({ cwd: params.host.workspace.root, guard: ignore, host: params.host, signal, fetchUrl });
    const slash = params.slash ?? new SlashCommands({ roots: [params.host.workspace.root], guard: ignore });
    this.personText = new PersonText(slash, this.mentions, (text) => this.say("info", text));
    this.presenter = new AnswerPresenter({
      state: this.state,
      messages: this.messages,
      executeTool: (call) => this.toolExecutor.executeTool(call),
      say: (kind, text, extra) => this.say(kind, text, extra),
      withStateLock: (fn) => this.withStateLock(fn),
      report,
      partialUpdateIntervalMs: params.partialUpdateIntervalMs,
    });
    this.retrierDeps = {
      options: params.retry,
      maxRetries: () => params.settings().requestRetries,
      signal: this.abortController.signal,
      messages: this.messages,
      say: (kind, text, extra) => this.say(kind, text, extra),
      ask: (kind, text) => this.ask(kind, text),
      withStateLock: (fn) => this.withStateLock(fn),
      beforeCompact: (messages) => this.hooks.preCompact("context_window_exceeded", messages),
    };
    this.retrier = new ApiRequestRetrier(this.retrierDeps);
    this.readerDeps = {
      state: this.state,
      presenter: this.presenter,
      parser: this.parser,
      settings: params.settings,
      abortRequest: () => params.api.abort(),
      presentAssistantMessage: () => this.presentAssistantMessage(),
      withStateLock: (fn) => this.withStateLock(fn),
    };
  }

  /** True once the task is over for good (completed, failed or aborted) and its messages are saved. */
  get isFinished(): boolean {
    return this.result !== undefined;
  }

  /** Every change of task state goes through this one lock (but the abort flag and the presenter's re-entrancy pair: task-state.ts). */
  withStateLock<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.stateMutex.runExclusive(fn);
  }

  async startTask(text: string, images: readonly string[] = []): Promise<TaskOutcome> {
    await this.say("task", text, { images: [...images] });
    void this.mode.save();
    this.startCheckpoints();
    const stopped = await this.hooks.taskStart(text, images.length);
    if (stopped !== undefined) return this.stoppedByHook(stopped);
    if (SlashCommands.isCompact(text) && images.length === 0) return this.nothingToCompact();
    const mentioned = (await this.mentions.blocks(text)).map((block) => ({ type: "text" as const, text: block }));
    const content: ContentBlock[] = [{ type: "text", text: `<task>\n${await this.personText.expanded(text)}\n</task>` }, ...mentioned, ...images.map(imageBlockFromDataUrl)];
    return this.initiateTaskLoop(content);
  }

  /**
   * Continues a saved task: shows its chat again and goes on from where the conversation stopped
   * (merging a trailing user message, so roles keep alternating). An interrupted task asks whether
   * to resume; a completed one shows its result again, and only a reply to it continues the work.
   */
  async resumeTask(saved: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] }, options: { completed?: boolean; restored?: { files: boolean } } = {}): Promise<TaskOutcome> {
    const reopened = reopenChat(saved.chat, options.completed === true, options.restored);
    await this.withStateLock(() => this.messages.load(reopened.chat, saved.api));
    await this.focusChain.restore(reopened.chat);
    void this.mode.save();
    this.startCheckpoints();
    const next = await askToGoOn(reopened, { ...this.retrierDeps, isAborted: () => this.state.abort, withMentions: (text) => this.personText.forModel(text) });
    if (Array.isArray(next)) {
      const last = this.messages.lastMessage;
      const stopped = await this.hooks.taskResume(last?.type === "say" && last.say === "user_feedback" ? (last.text ?? "") : "", options.completed === true);
      return stopped === undefined ? this.initiateTaskLoop(next) : this.stoppedByHook(stopped);
    }
    await this.messages.flush();
    this.result = next;
    return next;
  }

  /** `/compact` as a new task's first message: there is no conversation to condense, and no request is made. */
  private async nothingToCompact(): Promise<TaskOutcome> {
    await this.say("error", "There is nothing to condense: /compact condenses a task's conversation, and this task has none yet. Start a task, then type /compact as a reply.");
    await this.messages.flush();
    this.result = "aborted";
    return this.result;
  }

  /** A TaskStart, TaskResume or UserPromptSubmit hook cancelled before any request: the task ends, said why. */
  private async stoppedByHook(reason: string): Promise<TaskOutcome> {
    await this.say("error", `A hook stopped the task: ${reason}`);
    await this.messages.flush();
    this.result = "aborted";
    return this.result;
  }

  private startCheckpoints(): void {
    if (this.params.checkpoints) this.checkpoints = new TaskCheckpoints(this.params.checkpoints, this.retrierDeps);
  }

  /**
   * Runs rounds until one ends the loop. A round that used no tool ends recursivelyMakeClineRequests
   * with didEndLoop false: the model is reminded to use a tool, and that counts as a mistake.
   */
  async initiateTaskLoop(userContent: ContentBlock[]): Promise<TaskOutcome> {
    let next = userContent;
    try {
      while (!(await this.recursivelyMakeClineRequests(next))) {
        next = [{ type: "text", text: withModeReminder(formatResponse.noToolsUsed(this.params.settings().toolCallMode), this.mode.current) }];
        await this.withStateLock(() => this.state.consecutiveMistakeCount++);
      }
    } catch (error) {
      this.endedWith = "failed";
      await this.say("error", `Tandem stopped unexpectedly: ${errorText(error)}`);
    }
    if (this.endedWith === "completed" && !this.state.abort) {
      await this.hooks.taskComplete(this.messages.chatMessages.findLast((m) => m.type === "say" && m.say === "completion_result")?.text ?? "");
    }
    await this.presenter.flush();
    await this.messages.flush();
    this.result = this.state.abort ? "aborted" : (this.endedWith ?? "failed");
    return this.result;
  }

  /**
   * Cancels the task: the stream, any wait for the person, and running tools stop at once.
   * "shutdown" when the host is going away (a window reload), which the chat and the model are
   * told as such: the person did not cancel anything.
   */
  async abortTask(reason: AbortReason = "cancelled"): Promise<void> {
    if (this.state.abort) return;
    // The seed's phases. Decided before the flag: once it is set, a cancelled task and a finished one look alike.
    const runCancelHook = this.hooks.cancelWanted() && !this.isFinished;
    this.state.abortReason = reason;
    this.abortController.abort();
    // Running hooks stop with everything else (commands end on the signal); TaskCancel runs last.
    this.hooks.cancelRunning();
    // Previews go at once: the person sees the edit taken back as they cancel.
    void this.toolExecutor.dispose();
    this.params.api.abort();
    this.presenter.cancel();
    this.chat.cancelPendingAsk(reason !== "shutdown");
    if (runCancelHook) await this.hooks.taskCancel(reason);
  }

  /**
   * The person's Plan/Act switch. The next request tells the model; a plan waiting for a reply
   * when the person switches to Act is answered by the switch, so the task carries the plan on.
   */
  setMode(mode: AgentMode): void {
    if (!this.mode.set(mode)) return;
    const open = this.chat.openQuestion;
    if (mode === "act" && open?.kind === "plan_mode_respond") this.chat.answer(open.id, { type: "no" });
  }

  /**
   * Releases all the task holds, for its creator (the Controller): a running task is aborted first
   * (its commands end, background ones too), then its edit previews, temp folder and pending chat
   * updates go, and its messages are saved.
   */
  async dispose(reason: AbortReason = "cancelled"): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.abortTask(reason);
    await this.toolExecutor.dispose();
    this.commands.dispose();
    this.presenter.cancel();
    await this.messages.flush();
    await this.mode.flush();
  }

  /**
   * One round, then the next while tools ran (the seed's recursion). Returns didEndLoop: false
   * when the round used no tool, true when the task ended (how: `endedWith`).
   */
  async recursivelyMakeClineRequests(userContent: ContentBlock[]): Promise<boolean> {
    const round = await this.makeRequest(userContent);
    if (round.kind === "tools_ran") return this.recursivelyMakeClineRequests(round.results);
    if (round.kind === "no_tool") return false;
    this.endedWith = round.outcome;
    return true;
  }

  /** A request, its answer presented and its tools run; the checkpoint saved before the next round. */
  private async makeRequest(userContent: ContentBlock[]): Promise<RoundOutcome> {
    if (this.state.abort) return ended("aborted");
    const limit = await checkMistakeLimit({ ...this.retrierDeps, state: this.state, settings: this.params.settings, withMentions: (text) => this.personText.forModel(text) });
    if (limit && !Array.isArray(limit)) return limit;
    const checklistNews = await this.focusChain.beforeRequest();
    const switched = this.mode.takeSwitchNote();
    const hookNews = this.hooks.takeContext();
    const notes = [checklistNews, switched, hookNews].filter((text) => text !== undefined).map((text) => ({ type: "text" as const, text }));
    const content = [...userContent, ...(limit ?? []), ...notes];
    // What the model should know of the editor, terminals and background commands goes last.
    content.push(await this.environment.details(content));
    if (this.state.abort) return ended("aborted");
    await this.withStateLock(() => {
      this.state.apiRequestCount++;
      this.messages.addUserContent(content, supersededDetails);
    });
    // Reads recorded, and the conversation condensed or truncated if it nears the window's end.
    await this.context.beforeRequest();
    const row = new RequestRow(await this.say("api_req_started", undefined, { apiRequest: RequestRow.emptyInfo() }), this.messages, (fn) => this.withStateLock(fn));
    this.retrier = new ApiRequestRetrier(this.retrierDeps);
    let attempt: AttemptOutcome;
    do attempt = await this.streamOneAnswer(row);
    while (attempt.kind === "retry");
    if (attempt.kind === "ended") return attempt;
    await this.checkpoints?.saveCheckpoint(this.state.apiRequestCount);
    return this.roundEnd();
  }

  /** After the round's tools ran: the task ends (its last results recorded), goes on with them, or no tool was used. */
  private roundEnd(): Promise<RoundOutcome> {
    return this.withStateLock((): RoundOutcome => {
      const { state } = this;
      if (state.taskEnd) {
        // Record the completion's result too, so every tool call in the history has its answer.
        this.messages.addApiMessage({ role: "user", content: state.userMessageContent });
        return ended("completed");
      }
      const usedTool = state.assistantMessageContent.some((b) => b.type === "tool_use");
      return usedTool ? { kind: "tools_ran", results: state.userMessageContent } : { kind: "no_tool" };
    });
  }

  /**
   * Streams one answer and presents it. "retry": the attempt failed before anything was kept, and
   * the same request goes again; "ended": the person stopped after a failure, or cancelled.
   */
  private async streamOneAnswer(row: RequestRow): Promise<AttemptOutcome> {
    await this.withStateLock(() => this.state.resetRound());
    this.parser.reset();
    this.presenter.startAnswer();
    const answer = new AnswerAssembler();
    const firstMessageTs = this.messages.nextTs();
    const failure = await readAnswer(this.attemptApiRequest(), answer, row, this.readerDeps);
    if (this.state.abort) return this.keepInterruptedAnswer(answer, row);
    if (failure instanceof RequestStopped) return this.decided("stop", row);
    if (failure !== undefined) {
      const apiError = failure instanceof ApiError ? failure : new ApiError("unknown", errorText(failure), { cause: failure });
      // A tool ran only once its call was complete: then the world changed, and what we have is kept instead of replayed.
      const hasCompleteTool = this.state.assistantMessageContent.some((b) => b.type === "tool_use" && !b.partial);
      if (!hasCompleteTool) {
        await this.presenter.discard(firstMessageTs);
        await row.change((info) => (info.error = apiError.message));
        return this.decided(await this.retrier.afterFailure(apiError), row);
      }
      answer.note = formatResponse.responseCutShort(apiError.message);
    }

    // The request is over once its stream ended; its row must not spin while a tool waits for the person.
    await row.change((info) => (info.outcome = "completed"));
    await this.presenter.finish(answer, { interrupted: failure !== undefined, unclosedParam: this.parser.unclosedParam() });
    if (this.state.abort) return this.keepInterruptedAnswer(answer, row);
    if (answer.isEmpty(this.state.assistantMessageContent)) {
      await this.presenter.discard(firstMessageTs);
      return this.decided(await this.retrier.afterEmptyAnswer(), row);
    }
    await this.withStateLock(() => this.messages.addApiMessage(answer.toApiMessage()));
    return { kind: "presented" };
  }

  /** Cancelled mid-answer: what arrived is kept, marked as interrupted, so the history stays whole. */
  private async keepInterruptedAnswer(answer: AnswerAssembler, row: RequestRow): Promise<AttemptOutcome> {
    await row.change((info) => (info.outcome = info.outcome ?? "cancelled"));
    await this.presenter.keepInterrupted(answer, this.state.abortReason ?? "cancelled");
    return ended("aborted");
  }

  /** After a failed attempt: the retrier's (or the person's) decision, unless the task was cancelled meanwhile. */
  private async decided(decision: RetryDecision, row: RequestRow): Promise<AttemptOutcome> {
    if (this.state.abort) return ended("aborted");
    if (decision === "retry") return { kind: "retry" };
    await row.change((info) => (info.outcome = "failed"));
    return ended("failed");
  }

  /**
   * Gets the stream for this round. Failures before the first chunk are retried here with
   * backoff (or put to the person); the stream is yielded only once a first chunk arrived.
   */
  async *attemptApiRequest(): ApiStream {
    // MCP servers still connecting get up to 10 s, then the request goes without them.
    await this.mcp.beforeRequest();
    // Read fresh for every request: an edited rules file applies from the next one.
    const rules = await this.rules.beforeRequest();
    for (;;) {
      // Cancelled: the stream ends, and streamOneAnswer keeps what had arrived.
      if (this.state.abort) return;
      const native = this.params.settings().toolCallMode === "native";
      const mode = this.mode.current;
      const stream = this.params.api.createMessage(
        this.params.systemPrompt(rules, mode),
        this.messages.apiHistory,
        native ? [...this.toolSpecs(mode), ...this.mcp.nativeSpecs()] : undefined,
      );
      let first: IteratorResult<unknown>;
      try {
        first = await stream.next();
      } catch (error) {
        if (this.state.abort) return;
        const apiError = isApiError(error) ? error : new ApiError("unknown", errorText(error), { cause: error });
        const decision = await this.retrier.afterFailure(apiError);
        if (decision === "retry") continue;
        throw new RequestStopped("The person stopped the request");
      }
      if (first.done) return;
      yield first.value as never;
      yield* stream;
      return;
    }
  }

  /** The native tool specs: with task_progress on every tool while the focus chain is on. */
  /** The native specs of the mode's tools, each with task_progress while the focus chain is on. */
  private toolSpecs(mode: AgentMode) {
    const specs = toolSpecs(toolsForMode(this.params.tools, mode));
    return this.focusChain.enabled ? withTaskProgressSpec(specs) : specs;
  }

  /** The person's edit of the checklist (the panel); the model sees it with its next request. Throws when it does not fit. */
  editFocusChain(items: unknown): Promise<void> {
    return this.focusChain.fromPerson(items);
  }

  /** Presents the blocks parsed so far: text to the chat, complete tool calls to the ToolExecutor. */
  presentAssistantMessage(): Promise<void> {
    return this.presenter.presentAssistantMessage();
  }

  /** Shows a message (or updates the streaming one of the same kind). Returns its timestamp. */
  say(kind: SayKind, text?: string, extra: SayExtra = {}): Promise<number> {
    return this.chat.say(kind, text, extra);
  }

  /**
   * Asks the person and waits for the answer (resolves "no" if the task is cancelled meanwhile).
   * `/compact` condenses and asks again; so does a reply a UserPromptSubmit hook withheld.
   */
  async ask(kind: AskKind, text: string, extra: AskExtra = {}): Promise<AskResponse> {
    for (;;) {
      const response = await this.context.answerOf(() => this.chat.ask(kind, text, extra));
      if (this.state.abort || (await this.hooks.userReply(response))) return response;
    }
  }

  /** The Controller delivers the person's answer here. Returns false if question `questionId` is not open. */
  answer(questionId: number, response: AskResponse): boolean {
    return this.chat.answer(questionId, response);
  }

  /** What the task waits for the person to answer, if anything. */
  get openQuestion(): OpenQuestion | undefined {
    return this.chat.openQuestion;
  }

  /** The context new_task handed over, once the task ended with it. */
  get handoffContext(): string | undefined {
    const end = this.state.taskEnd;
    return this.isFinished && end?.kind === "handed_off" ? end.context : undefined;
  }

  private reportInternalError(error: unknown): void {
    this.params.host.window.notify("error", `Tandem: ${errorText(error)}`);
  }
}

/** The person chose to stop after a request failed before its first chunk: attemptApiRequest tells streamOneAnswer. */
class RequestStopped extends Error {}
