/**
 * One answer of the model as it streams in: the parser its text feeds, the presenter that shows
 * it block by block and hands tool calls to the executor, and what becomes of the attempt when
 * the stream fails, comes back empty or is cancelled (the Task's streamOneAnswer).
 */
import type { ApiStreamChunk } from "../../api/types";
import { ApiError } from "../../api/errors";
import { IncrementalAssistantMessageParser } from "../assistant-message/incremental-parser";
import { formatResponse } from "../prompts/responses";
import { errorText } from "../util/error-text";
import { AnswerAssembler } from "./answer-assembler";
import { AnswerPresenter } from "./answer-presenter";
import { readAnswer, type AnswerReaderDeps } from "./answer-reader";
import type { ApiRequestRetrier, RetryDecision } from "./api-request-retrier";
import type { RequestRow } from "./request-row";
import { ended, type AttemptOutcome } from "./round-outcome";
import type { ToolCall } from "./tool-call";
import type { TaskScope } from "./task-scope";

export class AnswerStream {
  readonly parser: IncrementalAssistantMessageParser;
  readonly presenter: AnswerPresenter;
  private readonly readerDeps: AnswerReaderDeps;

  constructor(
    private readonly scope: TaskScope,
    options: { grammar: ReadonlyMap<string, ReadonlySet<string>>; executeTool(call: ToolCall): Promise<void>; partialUpdateIntervalMs?: number },
  ) {
    this.parser = new IncrementalAssistantMessageParser(options.grammar);
    this.presenter = new AnswerPresenter({
      state: scope.state,
      messages: scope.messages,
      executeTool: (call) => options.executeTool(call),
      say: (kind, text, extra) => scope.say(kind, text, extra),
      withStateLock: (fn) => scope.withStateLock(fn),
      report: (error) => scope.report(error),
      partialUpdateIntervalMs: options.partialUpdateIntervalMs,
    });
    this.readerDeps = {
      state: scope.state,
      presenter: this.presenter,
      parser: this.parser,
      settings: () => scope.settings(),
      abortRequest: () => scope.api.abort(),
      presentAssistantMessage: () => this.presenter.presentAssistantMessage(),
      withStateLock: (fn) => scope.withStateLock(fn),
    };
  }

  /**
   * Streams one answer and presents it. "retry": the attempt failed before anything was kept, and
   * the same request goes again; "ended": the person stopped after a failure, or cancelled.
   */
  async streamOneAnswer(request: AsyncGenerator<ApiStreamChunk, unknown, undefined>, row: RequestRow, retrier: ApiRequestRetrier): Promise<AttemptOutcome> {
    const { state } = this.scope;
    await this.scope.withStateLock(() => state.resetRound());
    this.parser.reset();
    this.presenter.startAnswer();
    const answer = new AnswerAssembler();
    const firstMessageTs = this.scope.messages.nextTs();
    const end = await readAnswer(request, answer, row, this.readerDeps);
    if (state.abort) return this.keepInterruptedAnswer(answer, row);
    if (end.kind === "stopped") return this.decided("stop", row);
    if (end.kind === "failed") {
      const apiError = end.error instanceof ApiError ? end.error : new ApiError("unknown", errorText(end.error), { cause: end.error });
      // A tool ran only once its call was complete: then the world changed, and what we have is kept instead of replayed.
      const hasCompleteTool = state.assistantMessageContent.some((b) => b.type === "tool_use" && !b.partial);
      if (!hasCompleteTool) {
        await this.presenter.discard(firstMessageTs);
        await row.change((info) => (info.error = apiError.message));
        return this.decided(await retrier.afterFailure(apiError), row);
      }
      answer.note = formatResponse.responseCutShort(apiError.message);
    }

    // The request is over once its stream ended; its row must not spin while a tool waits for the person.
    await row.change((info) => (info.outcome = "completed"));
    await this.presenter.finish(answer, { interrupted: end.kind === "failed", unclosedParam: this.parser.unclosedParam() });
    if (state.abort) return this.keepInterruptedAnswer(answer, row);
    if (answer.isEmpty(state.assistantMessageContent)) {
      await this.presenter.discard(firstMessageTs);
      return this.decided(await retrier.afterEmptyAnswer(), row);
    }
    await this.scope.withStateLock(() => this.scope.messages.addApiMessage(answer.toApiMessage()));
    return { kind: "presented" };
  }

  /** Cancelled mid-answer: what arrived is kept, marked as interrupted, so the history stays whole. */
  private async keepInterruptedAnswer(answer: AnswerAssembler, row: RequestRow): Promise<AttemptOutcome> {
    await row.change((info) => (info.outcome = info.outcome ?? "cancelled"));
    await this.presenter.keepInterrupted(answer, this.scope.state.abortReason ?? "cancelled");
    return ended("aborted");
  }

  /** After a failed attempt: the retrier's (or the person's) decision, unless the task was cancelled meanwhile. */
  private async decided(decision: RetryDecision, row: RequestRow): Promise<AttemptOutcome> {
    if (this.scope.state.abort) return ended("aborted");
    if (decision === "retry") return { kind: "retry" };
    await row.change((info) => (info.outcome = "failed"));
    return ended("failed");
  }
}
