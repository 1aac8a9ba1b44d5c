import { ApiError, isApiError } from "../../api/errors";
import type { ApiMessage, ApiStreamChunk, ContentBlock } from "../../api/types";
import type { AskKind, AskResponse, ChatMessage, SayKind } from "../../shared/messages";
import type { OpenQuestion } from "../../shared/protocol";
import { formatResponse } from "../prompts/responses";
import { errorText } from "../util/error-text";
import { imageBlockFromDataUrl } from "../util/image-block";
import { REQUEST_STOPPED } from "./answer-reader";
import { AnswerStream } from "./answer-stream";
import { ApiRequestRetrier, type RetryOptions } from "./api-request-retrier";
import type { AskExtra, SayExtra } from "./chat-channel";
import { RequestDraft } from "./request-draft";
import { RequestPartsBuilder } from "./request-parts";
import { RequestRow } from "./request-row";
import { askToGoOn, reopenChat } from "./resume";
import { ended, type AttemptOutcome, type RoundOutcome, type RoundsOutcome, type TaskOutcome } from "./round-outcome";
import type { PromptFacts } from "./system-prompt";
import type { TaskScope } from "./task-scope";
import type { AbortReason } from "./task-state";
import { ToolExecutor } from "./tool-executor";
import { toolGrammar, type ToolGrammar, type ToolSet } from "./tools/registry";
import { unknownToolTags } from "./unknown-tools";

export type { TaskOutcome } from "./round-outcome";

/** One of the person's messages, edited: the Task goes on from it (Task.resumeTask). */
export interface EditedMessage {
  readonly text: string;
  readonly images: readonly string[];
  /** The task's own first message. */
  readonly first: boolean;
  readonly filesRestored: boolean;
  /** Steps after that point changed files (which then stay, unless restored). */
  readonly laterChanges: boolean;
}

export interface TaskOptions {
  readonly tools: ToolSet;
  /** What the base system prompt says of the machine. */
  readonly prompt: PromptFacts;
  readonly retry?: Partial<RetryOptions>;
  /** Interval between partial UI updates of streamed text (first token and tool blocks go at once). */
  readonly partialUpdateIntervalMs?: number;
}

/**
 * One task: assembled by the Controller for one prompt and thrown away afterwards. It drives the
 * rounds (initiateTaskLoop → recursivelyMakeClineRequests → attemptApiRequest), presents the
 * streamed answer block by block, and talks to the person only through ask and say. What it
 * shares with its parts is its scope (task-scope.ts); every capability beyond the loop joins it
 * as a participant of that scope (participant.ts), which the Task calls at each moment.
 */
export class Task {
  readonly taskId: string;
  private readonly executor: ToolExecutor;
  /** The round's streamed answer: its parser and presenter (answer-stream.ts). */
  private readonly answers: AnswerStream;
  private readonly parts: RequestPartsBuilder;
  /** Every tool's name and parameters: what the XML parser reads as calls. */
  private readonly grammar: ToolGrammar;
  /** This round's: each round starts with a fresh budget of automatic retries. */
  private retrier: ApiRequestRetrier;
  /** Set once the task is over for good, its messages flushed. */
  private result: TaskOutcome | undefined;
  private disposed = false;

  constructor(
    readonly scope: TaskScope,
    private readonly options: TaskOptions,
  ) {
    this.taskId = scope.taskId;
    // Native mode: tool calls arrive apart from the text, so no XML tag in it is a tool.
    const native = scope.settings().toolCallMode === "native";
    this.executor = new ToolExecutor(scope, options.tools);
    scope.runToolsWith((name, params) => this.executor.callTool(name, params));
    this.parts = new RequestPartsBuilder(scope, options.tools, options.prompt);
    this.grammar = toolGrammar(options.tools, scope.participants.callParams);
    this.answers = new AnswerStream(scope, {
      grammar: native ? new Map() : this.grammar,
      executeTool: (call) => this.executor.executeTool(call),
      partialUpdateIntervalMs: options.partialUpdateIntervalMs,
    });
    this.retrier = new ApiRequestRetrier(scope, options.retry);
  }

  get messages() {
    return this.scope.messages;
  }

  get state() {
    return this.scope.state;
  }

  /** True once the task is over for good (completed, failed or aborted) and its messages are saved. */
  get isFinished(): boolean {
    return this.result !== undefined;
  }

  async startTask(text: string, images: readonly string[] = []): Promise<TaskOutcome> {
    await this.say("task", text, { images: [...images] });
    await this.scope.participants.opened({ kind: "new" });
    return this.beginTask(text, images);
  }

  /** The task's text (shown already) as the first request's content, once the participants let it begin. */
  private async beginTask(text: string, images: readonly string[], note?: string): Promise<TaskOutcome> {
    const { participants } = this.scope;
    const stopped = await participants.beginning({ kind: "new", text, images: images.length });
    if (stopped !== undefined) return this.stoppedBeforeStart(stopped);
    const words = await participants.personWords(text);
    const blocks = [...words.blocks, ...(note ? [note] : [])];
    const content: ContentBlock[] = [{ type: "text", text: `<task>\n${words.text ?? ""}\n</task>` }, ...blocks.map((block) => ({ type: "text" as const, text: block })), ...images.map(imageBlockFromDataUrl)];
    return this.initiateTaskLoop(content);
  }

  /**
   * Continues a saved task: shows its chat again and goes on from where the conversation stopped
   * (merging a trailing user message, so roles keep alternating). An interrupted task asks whether
   * to resume; a completed one shows its result again, and only a reply to it continues the work.
   */
  async resumeTask(saved: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] }, options: { completed?: boolean; restored?: { files: boolean }; edited?: EditedMessage } = {}): Promise<TaskOutcome> {
    const { participants, messages } = this.scope;
    const reopened = reopenChat(saved.chat, options.completed === true, options.restored ?? (options.edited && { files: options.edited.filesRestored }));
    await this.scope.withStateLock(() => messages.load(reopened.chat, saved.api));
    await participants.opened({ kind: "resumed", chat: reopened.chat });
    if (options.edited) return this.goOnEdited(options.edited);
    const next = await askToGoOn(reopened, this.scope);
    if (!Array.isArray(next)) return this.finish(next);
    const last = messages.lastMessage;
    const reply = last?.type === "say" && last.say === "user_feedback" ? (last.text ?? "") : "";
    const stopped = await participants.beginning({ kind: "resumed", reply, wasCompleted: options.completed === true });
    return stopped === undefined ? this.initiateTaskLoop(next) : this.stoppedBeforeStart(stopped);
  }

  /**
   * The person edited one of their messages and the chat was taken back to it (the Controller's
   * editMessage): the first message begins the task again; a later one goes to the model as what
   * the person says at that point.
   */
  private async goOnEdited(edited: EditedMessage): Promise<TaskOutcome> {
    // Files changed after that point and left as they are: the model must not trust what it remembers of them.
    const filesNote = edited.laterChanges && !edited.filesRestored ? formatResponse.editedFilesKept() : undefined;
    if (edited.first) return this.beginTask(edited.text, edited.images, filesNote);
    await this.say("user_feedback", edited.text, { images: [...edited.images] });
    const stopped = await this.scope.participants.beginning({ kind: "resumed", reply: edited.text, wasCompleted: false });
    if (stopped !== undefined) return this.stoppedBeforeStart(stopped);
    const reply = (await this.scope.forModel(edited.text)) ?? "";
    const blocks = [reply ? `<feedback>\n${reply}\n</feedback>` : undefined, filesNote].filter((text): text is string => text !== undefined);
    return this.initiateTaskLoop([...blocks.map((text) => ({ type: "text" as const, text })), ...edited.images.map(imageBlockFromDataUrl)]);
  }

  /** A participant stopped the task before any request (a hook, a /compact with nothing to condense): said, and the task ends. */
  private async stoppedBeforeStart(reason: string): Promise<TaskOutcome> {
    await this.say("error", reason);
    return this.finish("aborted");
  }

  private async finish(outcome: TaskOutcome): Promise<TaskOutcome> {
    await this.answers.presenter.flush();
    await this.scope.messages.flush();
    this.result = outcome;
    this.scope.participants.ended(outcome, (error) => this.scope.report(error));
    return outcome;
  }

  /**
   * Runs rounds until one ends the task. A round that used no tool ends recursivelyMakeClineRequests
   * with "no_tool": the model is reminded to use a tool, and that counts as a mistake.
   */
  async initiateTaskLoop(userContent: ContentBlock[]): Promise<TaskOutcome> {
    const { state, participants } = this.scope;
    let outcome: TaskOutcome;
    try {
      let round = await this.recursivelyMakeClineRequests(userContent);
      while (round.kind === "no_tool") {
        await this.scope.withStateLock(() => state.consecutiveMistakeCount++);
        round = await this.recursivelyMakeClineRequests([{ type: "text", text: this.noToolNote() }], { afterNoTool: true });
      }
      outcome = round.outcome;
    } catch (error) {
      outcome = "failed";
      await this.say("error", `Tandem stopped unexpectedly: ${errorText(error)}`);
    }
    if (outcome === "completed" && !state.abort) {
      await participants.taskCompleted(this.scope.messages.chatMessages.findLast((m) => m.type === "say" && m.say === "completion_result")?.text ?? "");
    }
    return this.finish(state.abort ? "aborted" : outcome);
  }

  /** What the model is told after an answer with no tool: which of its tags named no tool, and the tools it has. */
  private noToolNote(): string {
    const toolCallMode = this.scope.settings().toolCallMode;
    const text = this.scope.state.assistantMessageContent.map((block) => (block.type === "text" ? block.content : "")).join("\n");
    const tags = toolCallMode === "xml" ? unknownToolTags(text, this.grammar) : [];
    return formatResponse.noToolsUsed(toolCallMode, tags.length > 0 ? { tags, tools: this.parts.offeredNames() } : undefined);
  }

  /**
   * Cancels the task: the stream, any wait for the person, and running tools stop at once.
   * "shutdown" when the host is going away (a window reload), which the chat and the model are
   * told as such: the person did not cancel anything.
   */
  async abortTask(reason: AbortReason = "cancelled"): Promise<void> {
    if (this.scope.state.abort) return;
    // Decided before the flag: once it is set, a cancelled task and a finished one look alike.
    const wasFinished = this.isFinished;
    this.scope.abort(reason);
    // Previews go at once: the person sees the edit taken back as they cancel.
    void this.executor.dispose();
    this.scope.api.abort();
    this.answers.presenter.cancel();
    this.scope.cancelPendingAsk(reason !== "shutdown");
    await this.scope.participants.cancelled(reason, wasFinished);
  }

  /**
   * Releases all the task holds, for its creator (the Controller): a running task is aborted first
   * (its commands end, background ones too), then its edit previews, its participants, the scope's
   * services and pending chat updates go, and its messages are saved.
   */
  async dispose(reason: AbortReason = "cancelled"): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.abortTask(reason);
    await this.executor.dispose();
    this.answers.presenter.cancel();
    await this.scope.dispose();
  }

  /** One round, then the next while tools ran (the seed's recursion); returns how the rounds ended. */
  async recursivelyMakeClineRequests(userContent: ContentBlock[], how: { afterNoTool?: boolean } = {}): Promise<RoundsOutcome> {
    const round = await this.makeRequest(new RequestDraft(userContent, how.afterNoTool === true));
    return round.kind === "tools_ran" ? this.recursivelyMakeClineRequests(round.results) : round;
  }

  /** A request, its answer presented and its tools run; the participants' round done before the next. */
  private async makeRequest(draft: RequestDraft): Promise<RoundOutcome> {
    const { state, participants, messages } = this.scope;
    if (state.abort) return ended("aborted");
    const stopped = await participants.beforeRequest(draft);
    if (stopped) return stopped;
    if (state.abort) return ended("aborted");
    await this.scope.withStateLock(() => {
      state.apiRequestCount++;
      messages.addUserContent([...draft.content], (block) => draft.supersedes(block));
    });
    await participants.historyReady();
    const row = new RequestRow(await this.say("api_req_started", undefined, { apiRequest: { ...RequestRow.emptyInfo(), sent: messages.conversationPoint() } }), messages, (fn) => this.scope.withStateLock(fn));
    this.retrier = new ApiRequestRetrier(this.scope, this.options.retry);
    let attempt: AttemptOutcome;
    do attempt = await this.answers.streamOneAnswer(this.attemptApiRequest(row), row, this.retrier);
    while (attempt.kind === "retry");
    if (attempt.kind === "ended") return attempt;
    await participants.roundDone(state.apiRequestCount);
    return this.roundEnd();
  }

  /** After the round's tools ran: the task ends (its last results recorded), goes on with them, or no tool was used. */
  private roundEnd(): Promise<RoundOutcome> {
    return this.scope.withStateLock((): RoundOutcome => {
      const { state, messages } = this.scope;
      if (state.taskEnd) {
        // Record the completion's result too, so every tool call in the history has its answer.
        messages.addApiMessage({ role: "user", content: state.userMessageContent });
        return ended("completed");
      }
      const usedTool = state.assistantMessageContent.some((b) => b.type === "tool_use");
      return usedTool ? { kind: "tools_ran", results: state.userMessageContent } : { kind: "no_tool" };
    });
  }

  /**
   * Gets the stream for this round: the participants' parts of the request (servers waited for,
   * rules read, the prompt and specs for the mode), then the provider's stream, yielded only once
   * its first chunk arrived. Failures before that are retried here with backoff (or put to the
   * person); when the person stops, nothing is yielded and it returns "stopped". The task's first
   * request shows on its `row` what it will cost before it goes.
   */
  async *attemptApiRequest(row?: RequestRow): AsyncGenerator<ApiStreamChunk, typeof REQUEST_STOPPED | undefined> {
    const { state, api, messages } = this.scope;
    const parts = await this.parts.build();
    if (row && state.apiRequestCount === 1) await row.estimate(parts, messages.apiHistory, api);
    for (;;) {
      // Cancelled: the stream ends, and streamOneAnswer keeps what had arrived.
      if (state.abort) return undefined;
      const stream = api.createMessage(parts.systemPrompt, messages.apiHistory, parts.tools);
      let first: IteratorResult<ApiStreamChunk>;
      try {
        first = await stream.next();
      } catch (error) {
        if (state.abort) return undefined;
        const apiError = isApiError(error) ? error : new ApiError("unknown", errorText(error), { cause: error });
        if ((await this.retrier.afterFailure(apiError)) === "retry") continue;
        return REQUEST_STOPPED;
      }
      if (first.done) return undefined;
      yield first.value;
      yield* stream;
      return undefined;
    }
  }

  /** Presents the blocks parsed so far: text to the chat, complete tool calls to the ToolExecutor. */
  presentAssistantMessage(): Promise<void> {
    return this.answers.presenter.presentAssistantMessage();
  }

  /** Shows a message (or updates the streaming one of the same kind). Returns its timestamp. */
  say(kind: SayKind, text?: string, extra: SayExtra = {}): Promise<number> {
    return this.scope.say(kind, text, extra);
  }

  /** Asks the person and waits for the answer (resolves "no" if the task is cancelled meanwhile). */
  ask(kind: AskKind, text: string, extra: AskExtra = {}): Promise<AskResponse> {
    return this.scope.ask(kind, text, extra);
  }

  /** The Controller delivers the person's answer here. Returns false if question `questionId` is not open. */
  answer(questionId: number, response: AskResponse): boolean {
    return this.scope.answer(questionId, response);
  }

  /** What the task waits for the person to answer, if anything. */
  get openQuestion(): OpenQuestion | undefined {
    return this.scope.openQuestion;
  }

  /** The context new_task handed over, once the task ended with it. */
  get handoffContext(): string | undefined {
    const end = this.scope.state.taskEnd;
    return this.isFinished && end?.kind === "handed_off" ? end.context : undefined;
  }
}
