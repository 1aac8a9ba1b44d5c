import { Mutex } from "async-mutex";
import pWaitFor from "p-wait-for";
import { ApiError, isApiError } from "../../api/errors";
import type { ApiHandler, ApiMessage, ApiStream, ApiStreamUsageChunk, ContentBlock, ImageBlock } from "../../api/types";
import type { HostBridge } from "../../host/bridge";
import type { ApiRequestInfo, AskKind, AskResponse, ChatMessage, SayKind } from "../../shared/messages";
import type { OpenQuestion } from "../../shared/protocol";
import type { AgentSettings } from "../../shared/settings";
import { IncrementalAssistantMessageParser } from "../assistant-message/incremental-parser";
import { formatResponse } from "../prompts/responses";
import { Throttle } from "../util/throttle";
import { AnswerAssembler } from "./answer-assembler";
import { ApiRequestRetrier, type RetryOptions } from "./api-request-retrier";
import { ChatChannel, type AskExtra, type SayExtra } from "./chat-channel";
import { type ChatListener, MessageState } from "./message-state";
import { sanitizeStreamingText } from "./sanitize-text";
import { StreamChunkCoordinator } from "./stream-chunk-coordinator";
import { BackgroundCommands } from "./background-commands";
import type { CommandSandbox } from "../sandbox/command-sandbox";
import { TaskCommands } from "../sandbox/task-commands";
import { TaskState, type AbortReason } from "./task-state";
import { ToolExecutor } from "./tool-executor";
import { toolGrammar, toolSpecs } from "./tools/registry";
import type { PathGuard, ToolDefinition } from "./tools/types";
import type { TaskStorage } from "../storage/task-storage";
import { errorText } from "../util/error-text";
import { reopenChat } from "./resume";


/** Saves the workspace before the next round (checkpoints plug in here later). */
export interface CheckpointHook {
  save(round: number): Promise<void>;
}

export type TaskOutcome = "completed" | "failed" | "aborted" | "mistake_limit";

export interface TaskParams {
  taskId: string;
  api: ApiHandler;
  host: HostBridge;
  tools: Readonly<Record<string, ToolDefinition>>;
  /** Paths tools must not touch; none ignores nothing. */
  ignore?: PathGuard;
  /** The OS sandbox commands run in; none runs them unconfined. */
  commandSandbox?: CommandSandbox;
  /** Read on every decision, so a settings change applies to the running task. */
  settings: () => AgentSettings;
  systemPrompt: () => string;
  listener: ChatListener;
  storage?: TaskStorage;
  checkpoints?: CheckpointHook;
  retry?: Partial<RetryOptions>;
  /** Interval between partial UI updates of streamed text (first token and tool blocks go at once). */
  partialUpdateIntervalMs?: number;
}

/** Thrown through the loop when the task is cancelled; caught by initiateTaskLoop. */
class TaskAbortedError extends Error {
  constructor() {
    super("Task aborted");
  }
}

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
  private readonly retrier: ApiRequestRetrier;
  private readonly textThrottle: Throttle;
  /** Live previews of tool calls as they stream (the chat row, the editor's diff view). */
  private readonly previewThrottle: Throttle;
  /** Chat rows of the answer being streamed, by block ("text:2", "reasoning"). */
  private readonly streamingRows = new Map<string, number>();
  private readonly chat: ChatChannel;
  private outcome: TaskOutcome = "failed";

  constructor(private readonly params: TaskParams) {
    this.taskId = params.taskId;
    const report = (error: unknown) => this.reportInternalError(error);
    this.messages = new MessageState(params.listener, params.storage, report);
    const announce = (question: OpenQuestion | undefined) => params.listener.onQuestionChanged?.(question);
    this.chat = new ChatChannel(this.messages, (fn) => this.withStateLock(fn), () => this.state.abort, report, announce);
    const streaming = { intervalMs: params.partialUpdateIntervalMs ?? 40, bytesPerSecond: SHOWN_BYTES_PER_SECOND };
    this.textThrottle = new Throttle(streaming, report);
    this.previewThrottle = new Throttle(streaming, report);
    // Native mode: tool calls arrive apart from the text, so no XML tag in it is a tool.
    const native = params.settings().toolCallMode === "native";
    this.parser = new IncrementalAssistantMessageParser(native ? new Map() : toolGrammar(params.tools));
    const ignore = params.ignore ?? { isIgnored: () => false };
    this.commands = new TaskCommands(params.host.terminal, params.commandSandbox, [params.host.workspace.root], ignore);
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
    });
    this.retrier = new ApiRequestRetrier({
      options: params.retry,
      maxRetries: () => params.settings().requestRetries,
      signal: this.abortController.signal,
      messages: this.messages,
      say: (kind, text, extra) => this.say(kind, text, extra).then(() => undefined),
      ask: (kind, text) => this.ask(kind, text),
      withStateLock: (fn) => this.withStateLock(fn),
    });
  }

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Every state change goes through this one lock. */
  withStateLock<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.stateMutex.runExclusive(fn);
  }

  // ---------------------------------------------------------------- lifecycle

  async startTask(text: string, images: readonly string[] = []): Promise<TaskOutcome> {
    await this.say("task", text, { images: [...images] });
    const content: ContentBlock[] = [{ type: "text", text: `<task>\n${text}\n</task>` }, ...images.map(toImageBlock)];
    return this.initiateTaskLoop(content);
  }

  /**
   * Continues a saved task: shows its chat again and goes on from where the conversation stopped
   * (merging a trailing user message, so roles keep alternating). An interrupted task asks whether
   * to resume; a completed one shows its result again, and only a reply to it continues the work.
   */
  async resumeTask(saved: { chat: readonly ChatMessage[]; api: readonly ApiMessage[] }, options: { completed?: boolean } = {}): Promise<TaskOutcome> {
    const reopened = reopenChat(saved.chat, options.completed === true);
    await this.withStateLock(() => this.messages.load(reopened.chat, saved.api));
    const answer = reopened.completed ? await this.ask("completion_result", "") : await this.ask("resume_task", "This task was interrupted. Resume it?");
    const replied = Boolean(answer.text?.trim() || answer.images?.length);
    if (this.state.abort || (answer.type === "no" && !replied) || (reopened.completed && !replied)) {
      this.state.didFinish = true;
      await this.messages.flush();
      return reopened.completed ? "completed" : "aborted";
    }
    if (replied) await this.say("user_feedback", answer.text, { images: answer.images });
    const note = reopened.completed ? formatResponse.completedTaskReply(answer.text ?? "") : formatResponse.taskResumption(answer.text);
    // A conversation that ended on the user's side (tool results) takes this into that message.
    return this.initiateTaskLoop([{ type: "text", text: note }, ...(answer.images ?? []).map(toImageBlock)]);
  }

  async initiateTaskLoop(userContent: ContentBlock[]): Promise<TaskOutcome> {
    let next = userContent;
    try {
      while (!this.state.abort) {
        const didEndLoop = await this.recursivelyMakeClineRequests(next);
        if (didEndLoop) break;
        // Only reached when a round ends without recursing: remind the model to use a tool.
        next = [{ type: "text", text: formatResponse.noToolsUsed(this.params.settings().toolCallMode) }];
        this.state.consecutiveMistakeCount++;
      }
    } catch (error) {
      if (!(error instanceof TaskAbortedError)) {
        this.outcome = "failed";
        await this.say("error", `Tandem stopped unexpectedly: ${errorText(error)}`);
      }
    }
    if (this.state.abort) this.outcome = "aborted";
    this.state.didFinish = true;
    await this.textThrottle.flush();
    await this.messages.flush();
    return this.outcome;
  }

  /**
   * Cancels the task: the stream, any wait for the person, and running tools stop at once.
   * "shutdown" when the host is going away (a window reload), which the chat and the model are
   * told as such: the person did not cancel anything.
   */
  async abortTask(reason: AbortReason = "cancelled"): Promise<void> {
    if (this.state.abort) return;
    this.state.abort = true;
    this.state.abortReason = reason;
    this.abortController.abort();
    this.commands.dispose();
    this.params.api.abort();
    this.textThrottle.cancel();
    this.previewThrottle.cancel();
    this.chat.cancelPendingAsk(reason !== "shutdown");
  }

  // ---------------------------------------------------------------- rounds

  /** One round: a request, its answer presented and tools run, then the next round. Returns didEndLoop. */
  async recursivelyMakeClineRequests(userContent: ContentBlock[]): Promise<boolean> {
    if (this.state.abort) throw new TaskAbortedError();
    const limitReply = await this.checkMistakeLimit();
    if (limitReply === "end") return true;
    if (limitReply) userContent = [...userContent, ...limitReply];
    const backgroundNews = this.backgroundCommands.takeReport();
    if (backgroundNews) userContent = [...userContent, { type: "text", text: backgroundNews }];

    await this.withStateLock(() => {
      this.state.apiRequestCount++;
      this.messages.addUserContent(userContent);
    });
    const requestTs = await this.say("api_req_started", undefined, { apiRequest: emptyRequestInfo() });
    this.retrier.startRound();

    for (;;) {
      const attempt = await this.streamOneAnswer(requestTs);
      if (attempt === "retry") continue;
      if (attempt === "stop") {
        this.outcome = "failed";
        await this.updateRequest(requestTs, (info) => (info.outcome = "failed"));
        return true;
      }
      break;
    }

    await this.params.checkpoints?.save(this.state.apiRequestCount);
    if (this.state.didCompleteTask) {
      // Record the completion's result too, so every tool call in the history has its answer.
      await this.withStateLock(() => this.messages.addApiMessage({ role: "user", content: this.state.userMessageContent }));
      this.outcome = "completed";
      return true;
    }
    return this.recursivelyMakeClineRequests(this.state.userMessageContent);
  }

  /** At the mistake limit: YOLO ends the task; otherwise the person decides. */
  private async checkMistakeLimit(): Promise<"end" | ContentBlock[] | undefined> {
    const limit = this.params.settings().mistakeLimit;
    if (this.state.consecutiveMistakeCount < limit) return undefined;
    const text = `The model made ${this.state.consecutiveMistakeCount} mistakes in a row.`;
    if (this.params.settings().yolo) {
      await this.say("error", `${text} YOLO mode ends the task here instead of burning more tokens.`);
      this.outcome = "mistake_limit";
      return "end";
    }
    const answer = await this.ask("mistake_limit_reached", `${text} You can guide it, or stop.`);
    if (this.state.abort) throw new TaskAbortedError();
    if (answer.type === "no") {
      this.outcome = "mistake_limit";
      return "end";
    }
    await this.withStateLock(() => (this.state.consecutiveMistakeCount = 0));
    if (answer.text) await this.say("user_feedback", answer.text, { images: answer.images });
    return [{ type: "text", text: formatResponse.tooManyMistakes(answer.text) }, ...(answer.images ?? []).map(toImageBlock)];
  }

  /**
   * Streams one answer and presents it. "retry" means the attempt failed before anything was
   * kept and the same request should be sent again; "stop" means the person chose to stop.
   */
  private async streamOneAnswer(requestTs: number): Promise<"done" | "retry" | "stop"> {
    await this.withStateLock(() => this.state.resetRound());
    this.parser.reset();
    this.streamingRows.clear();
    const answer = new AnswerAssembler();
    const firstMessageTs = this.messages.nextTs();
    const coordinator = new StreamChunkCoordinator(this.attemptApiRequest(requestTs), {
      onUsage: (usage) => void this.accountUsage(requestTs, usage),
      abortRequest: () => this.params.api.abort(),
    });

    let failure: unknown;
    let reasoningDone = false;
    const xmlMode = this.params.settings().toolCallMode === "xml";
    try {
      for (let chunk = await coordinator.next(); chunk; chunk = await coordinator.next()) {
        if (this.state.abort) break;
        if (chunk.type === "reasoning") {
          answer.addReasoning(chunk);
          this.textThrottle.push(() => this.sayStreaming("reasoning", "reasoning", answer.reasoningText, true), answer.reasoningLength);
        } else if (chunk.type === "tool_calls") {
          answer.nativeCalls.add(chunk);
        } else if (chunk.type === "stop") {
          answer.stopReason = chunk.reason;
        } else {
          // Cline's rule: one XML tool per answer. Text after it is cut (and saves tokens),
          // but the stream is read to its end otherwise, so the usage that closes it is counted.
          if (this.state.didAlreadyUseTool && xmlMode && chunk.text.trim()) {
            answer.note = formatResponse.onlyOneToolPerMessage();
            break;
          }
          if (answer.reasoningText && !reasoningDone) {
            reasoningDone = true;
            await this.textThrottle.flush();
            await this.sayStreaming("reasoning", "reasoning", answer.reasoningText, false);
          }
          answer.text += chunk.text;
          const blocks = this.parser.append(chunk.text);
          await this.withStateLock(() => (this.state.assistantMessageContent = [...blocks]));
          void this.presentAssistantMessage();
        }
        if (this.state.didRejectTool) {
          answer.note = formatResponse.interruptedByToolRejection();
          break;
        }
      }
    } catch (error) {
      failure = error;
    } finally {
      await coordinator.stop();
    }

    if (this.state.abort) return this.keepInterruptedAnswer(answer, requestTs);
    if (failure !== undefined && !(failure instanceof RequestStopped)) {
      const apiError = failure instanceof ApiError ? failure : new ApiError("unknown", errorText(failure), { cause: failure });
      // A tool already changed the world this round: keep what we have instead of replaying it.
      const hasCompleteTool = this.state.assistantMessageContent.some((b) => b.type === "tool_use" && !b.partial);
      if (!this.state.didRunToolThisRound && !hasCompleteTool) {
        await this.discardAttempt(firstMessageTs);
        await this.updateRequest(requestTs, (info) => (info.error = apiError.message));
        const decision = await this.retrier.afterFailure(apiError);
        if (this.state.abort) throw new TaskAbortedError();
        return decision;
      }
      answer.note = formatResponse.responseCutShort(apiError.message);
    }
    if (failure instanceof RequestStopped) return "stop";

    // The request is over once its stream ended; its row must not spin while a tool waits for the person.
    await this.updateRequest(requestTs, (info) => (info.outcome = "completed"));
    await this.finishPresentation(answer, reasoningDone, failure !== undefined);
    if (this.state.abort) return this.keepInterruptedAnswer(answer, requestTs);
    if (answer.isEmpty(this.state.assistantMessageContent)) {
      await this.discardAttempt(firstMessageTs);
      const decision = await this.retrier.afterEmptyAnswer();
      if (this.state.abort) throw new TaskAbortedError();
      return decision;
    }
    await this.withStateLock(() => {
      this.messages.addApiMessage(answer.toApiMessage());
      const usedTool = this.state.assistantMessageContent.some((b) => b.type === "tool_use");
      if (!usedTool) {
        this.state.userMessageContent.push({ type: "text", text: formatResponse.noToolsUsed(this.params.settings().toolCallMode) });
        this.state.consecutiveMistakeCount++;
      }
    });
    return "done";
  }

  /**
   * Gets the stream for this round. Failures before the first chunk are retried here with
   * backoff (or put to the person); the stream is yielded only once a first chunk arrived.
   */
  async *attemptApiRequest(requestTs: number): ApiStream {
    for (;;) {
      if (this.state.abort) throw new TaskAbortedError();
      const stream = this.params.api.createMessage(
        this.params.systemPrompt(),
        this.messages.apiHistory,
        this.params.settings().toolCallMode === "native" ? toolSpecs(this.params.tools) : undefined,
      );
      let first: IteratorResult<unknown>;
      try {
        first = await stream.next();
      } catch (error) {
        if (this.state.abort) throw new TaskAbortedError();
        const apiError = isApiError(error) ? error : new ApiError("unknown", errorText(error), { cause: error });
        const decision = await this.retrier.beforeFirstChunk(apiError, requestTs);
        if (decision === "retry") continue;
        throw new RequestStopped();
      }
      if (first.done) return;
      yield first.value as never;
      yield* stream;
      return;
    }
  }

  // ---------------------------------------------------------------- presentation

  /**
   * Advances through the parsed blocks: text to the chat, tool calls to the ToolExecutor. Runs
   * one at a time; calls that arrive while it runs are folded into one more pass.
   */
  async presentAssistantMessage(): Promise<void> {
    const state = this.state;
    if (state.abort) return;
    if (state.presentAssistantMessageLocked) {
      state.presentAssistantMessageHasPendingUpdates = true;
      return;
    }
    state.presentAssistantMessageLocked = true;
    state.presentAssistantMessageHasPendingUpdates = false;
    try {
      for (;;) {
        const block = state.assistantMessageContent[state.currentStreamingContentIndex];
        if (!block) {
          if (state.didCompleteReadingStream) state.userMessageContentReady = true;
          break;
        }
        const partial = block.partial && !state.didCompleteReadingStream;
        if (block.type === "text") {
          if (!state.didRejectTool && !state.didAlreadyUseTool) await this.presentText(state.currentStreamingContentIndex, block.content, partial);
        } else if (partial) {
          const call = { ...block, params: { ...block.params }, partial };
          this.previewThrottle.push(() => this.toolExecutor.executeTool(call), paramsSize(call.params));
        } else {
          // A preview still pending or running would land after the call: drop it, let it finish.
          this.previewThrottle.cancel();
          await this.previewThrottle.flush();
          await this.toolExecutor.executeTool({ ...block, params: { ...block.params }, partial });
        }
        if (state.abort) break;
        const skipRest = state.didRejectTool || state.didAlreadyUseTool;
        if (partial && !skipRest) break;
        state.currentStreamingContentIndex++;
      }
    } catch (error) {
      await this.reportInternalError(error);
      state.userMessageContentReady = true;
    } finally {
      state.presentAssistantMessageLocked = false;
    }
    if (state.presentAssistantMessageHasPendingUpdates) await this.presentAssistantMessage();
  }

  /**
   * Streamed text is cleaned up only when it is shown (the throttle decides how often), so a
   * chunk costs what it adds, not a pass over the whole text.
   */
  private async presentText(blockIndex: number, content: string, partial: boolean): Promise<void> {
    const row = `text:${blockIndex}`;
    if (partial) {
      this.textThrottle.push(async () => {
        const text = sanitizeStreamingText(content, true);
        // Nothing to show yet (e.g. only the start of a tag has arrived).
        if (text) await this.sayStreaming(row, "text", text, true);
      }, content.length);
      return;
    }
    // A partial update still pending or running would land after the final one.
    this.textThrottle.cancel();
    await this.textThrottle.flush();
    const text = sanitizeStreamingText(content, false);
    if (text) await this.sayStreaming(row, "text", text, false);
  }

  /** Shows or updates the chat row of one streamed block (text or reasoning) of this answer. */
  private async sayStreaming(row: string, kind: "text" | "reasoning", text: string, partial: boolean): Promise<void> {
    const ts = await this.say(kind, text, { partial, updateTs: this.streamingRows.get(row) });
    this.streamingRows.set(row, ts);
  }

  /** Closes partial blocks, presents native tool calls, and waits until every block is done. */
  private async finishPresentation(answer: AnswerAssembler, reasoningDone: boolean, interrupted: boolean): Promise<void> {
    await this.textThrottle.flush();
    if (answer.reasoningText && !reasoningDone) await this.sayStreaming("reasoning", "reasoning", answer.reasoningText, false);
    const ended = answer.endReason(interrupted);
    const nativeCalls = answer.finishNativeCalls(ended);
    const unclosedParam = this.parser.unclosedParam();
    await this.withStateLock(() => {
      // Partial blocks are closed so presentation can finish; a tool call among them is marked
      // cut off, and the ToolExecutor decides (per tool) that it does not run.
      this.state.assistantMessageContent = [
        ...this.state.assistantMessageContent.map((b) =>
          b.type === "tool_use" && b.partial ? { ...b, partial: false, cutOff: { reason: ended, ...(unclosedParam ? { unclosedParam } : {}) } } : { ...b, partial: false },
        ),
        ...nativeCalls,
      ];
      this.state.didCompleteReadingStream = true;
    });
    await this.presentAssistantMessage();
    await pWaitFor(() => this.state.userMessageContentReady || this.state.abort, { interval: 10 });
  }

  // ---------------------------------------------------------------- failures and cancel

  /** Cancelled mid-answer: keep what arrived, marked as interrupted, so history stays whole. */
  private async keepInterruptedAnswer(answer: AnswerAssembler, requestTs: number): Promise<never> {
    const shutdown = this.state.abortReason === "shutdown";
    await this.textThrottle.flush();
    await this.updateRequest(requestTs, (info) => (info.outcome = info.outcome ?? "cancelled"));
    await this.withStateLock(() => {
      for (const message of this.messages.chatMessages) {
        if (message.partial) this.messages.update(message.ts, (m) => (m.partial = false));
      }
      answer.note = shutdown ? formatResponse.interruptedByShutdown() : formatResponse.interruptedByUser();
      this.messages.addApiMessage(answer.toInterruptedApiMessage());
    });
    await this.say("info", shutdown ? "Interrupted: the window closed or reloaded." : "Task cancelled.");
    throw new TaskAbortedError();
  }

  /** Removes the chat messages a failed attempt produced, so the retry does not duplicate them. */
  private async discardAttempt(sinceTs: number): Promise<void> {
    this.textThrottle.cancel();
    this.previewThrottle.cancel();
    await Promise.all([this.textThrottle.flush(), this.previewThrottle.flush()]);
    await pWaitFor(() => !this.state.presentAssistantMessageLocked, { interval: 5 });
    await this.withStateLock(() => {
      const shownByAttempt = (m: ChatMessage) =>
        m.ts >= sinceTs && m.type === "say" && (m.say === "text" || m.say === "reasoning" || (m.say === "tool" && m.partial));
      this.messages.remove(this.messages.chatMessages.filter(shownByAttempt).map((m) => m.ts));
    });
  }

  // ---------------------------------------------------------------- ask and say

  /** Shows a message (or updates the streaming one of the same kind). Returns its timestamp. */
  say(kind: SayKind, text?: string, extra: SayExtra = {}): Promise<number> {
    return this.chat.say(kind, text, extra);
  }

  /** Asks the person and waits for the answer (resolves "no" if the task is cancelled meanwhile). */
  ask(kind: AskKind, text: string, extra: AskExtra = {}): Promise<AskResponse> {
    return this.chat.ask(kind, text, extra);
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
    return this.state.didFinish ? this.state.handoffContext : undefined;
  }

  // ---------------------------------------------------------------- accounting and helpers

  private async accountUsage(requestTs: number, usage: ApiStreamUsageChunk): Promise<void> {
    await this.updateRequest(requestTs, (info) => {
      info.tokensIn += usage.inputTokens;
      info.tokensOut += usage.outputTokens;
      info.cacheWrites += usage.cacheWriteTokens ?? 0;
      info.cacheReads += usage.cacheReadTokens ?? 0;
      info.cost += usage.totalCost ?? 0;
    });
  }

  private updateRequest(requestTs: number, change: (info: ApiRequestInfo) => void): Promise<void> {
    return this.withStateLock(() => {
      this.messages.update(requestTs, (m) => {
        m.apiRequest ??= emptyRequestInfo();
        change(m.apiRequest);
      });
    });
  }

  private async reportInternalError(error: unknown): Promise<void> {
    this.params.host.window.notify("error", `Tandem: ${errorText(error)}`);
  }
}

/**
 * How many bytes of streamed rows are shown per second at most, once rows are big: a row is
 * re-rendered whole (markdown in the webview, a diff in the editor), so a 1 MB row updates about
 * once a second and a 20 KB one at the base interval.
 */
const SHOWN_BYTES_PER_SECOND = 1_000_000;

function paramsSize(params: Readonly<Record<string, string>>): number {
  let size = 0;
  for (const value of Object.values(params)) size += value.length;
  return size;
}

/** The person chose to stop after a failed request. */
export class RequestStopped extends Error {
  constructor() {
    super("The person stopped the request");
  }
}

function emptyRequestInfo(): ApiRequestInfo {
  return { tokensIn: 0, tokensOut: 0, cacheWrites: 0, cacheReads: 0, cost: 0 };
}

function toImageBlock(dataUrl: string): ImageBlock {
  const match = /^data:([^;]+);base64,(.*)$/s.exec(dataUrl);
  return { type: "image", mediaType: match?.[1] ?? "image/png", data: match?.[2] ?? dataUrl };
}

