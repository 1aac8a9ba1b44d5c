import type { ApiError } from "../../api/errors";
import type { ApiRequestInfo, AskKind, AskResponse, ChatMessage, RetryInfo, SayKind } from "../../shared/messages";
import { truncateConversation } from "../context/truncate-conversation";
import { abortableSleep } from "../util/abortable-sleep";
import type { SayExtra } from "./chat-channel";
import type { MessageState } from "./message-state";
import { DEFAULT_RETRY_OPTIONS, planRetry, type RetryOptions } from "./retry-policy";

export type { RetryOptions } from "./retry-policy";

export interface ApiRequestRetrierDeps {
  options?: Partial<RetryOptions>;
  /** Automatic retries per round, read at each failure (a setting the person may change mid-task). */
  maxRetries(): number;
  signal: AbortSignal;
  messages: MessageState;
  say(kind: SayKind, text?: string, extra?: SayExtra): Promise<unknown>;
  ask(kind: AskKind, text: string): Promise<AskResponse>;
  withStateLock<T>(fn: () => T): Promise<T>;
  /** Before the conversation is shortened (the PreCompact hook): false keeps it whole. */
  beforeCompact?(messages: number): Promise<boolean>;
}

export type RetryDecision = "retry" | "stop";

/**
 * What the Task does after a failed request: shorten the context once when it overflowed,
 * retry with backoff (shown to the person as a countdown), and, once the automatic attempts are
 * spent or the error cannot be retried, ask the person. Every wait ends at once on cancel.
 * One per round: its counters are that round's budget and end with it.
 */
export class ApiRequestRetrier {
  private readonly options: RetryOptions;
  private attempts = 0;
  private truncatedThisRound = false;

  constructor(private readonly deps: ApiRequestRetrierDeps) {
    this.options = { ...DEFAULT_RETRY_OPTIONS, ...deps.options };
  }

  async afterFailure(error: ApiError): Promise<RetryDecision> {
    if (error.kind === "aborted" || this.deps.signal.aborted) return "stop";
    if (error.kind === "context_window_exceeded" && !this.truncatedThisRound) {
      if (await this.truncate()) return "retry";
    }
    const plan = planRetry(error, this.attempts, this.deps.maxRetries(), this.options);
    if (plan.action === "retry") {
      this.attempts = plan.attempt;
      return this.waitAndRetry(plan.delayMs, plan.attempt, describe(error));
    }
    if (plan.action === "ask_long_wait") {
      const seconds = Math.ceil(plan.delayMs / 1000);
      await this.markRequest(error);
      const answer = await this.deps.ask(
        "api_req_failed",
        `${describe(error)}\nThe provider asks to wait ${seconds} seconds before trying again. Wait and retry?`,
      );
      if (answer.type !== "yes" || this.deps.signal.aborted) return "stop";
      this.attempts++;
      return this.waitAndRetry(plan.delayMs, this.attempts, describe(error));
    }
    await this.markRequest(error);
    return this.askPerson(describe(error));
  }

  async afterEmptyAnswer(): Promise<RetryDecision> {
    const reason = "The model returned an empty answer (no text and no tool use).";
    await this.deps.say("error", reason);
    if (this.attempts < this.deps.maxRetries()) {
      this.attempts++;
      return this.waitAndRetry(this.options.baseDelayMs, this.attempts, reason);
    }
    await this.markRequest();
    return this.askPerson(reason);
  }

  private async askPerson(reason: string): Promise<RetryDecision> {
    const answer = await this.deps.ask("api_req_failed", reason);
    if (answer.type !== "yes" || this.deps.signal.aborted) return "stop";
    this.attempts = 0;
    this.truncatedThisRound = false;
    await this.updateLatest("api_req_started", (m) => (m.apiRequest = requestInFlight(m.apiRequest)));
    return "retry";
  }

  private async waitAndRetry(delayMs: number, attempt: number, reason: string): Promise<RetryDecision> {
    const retry: RetryInfo = {
      attempt,
      maxAttempts: this.deps.maxRetries(),
      delaySeconds: Math.round(delayMs / 100) / 10,
      reason,
    };
    await this.updateLatest("api_req_started", (m) => {
      if (m.apiRequest) m.apiRequest.outcome = "retried";
    });
    await this.deps.say("error_retry", `${reason} Retrying in ${retry.delaySeconds}s (attempt ${attempt}/${retry.maxAttempts}).`, { retry });
    const waited = await abortableSleep(delayMs, this.deps.signal);
    // The countdown row becomes a record of the wait, and the request row spins again for the new attempt.
    await this.updateLatest("error_retry", (m) => {
      if (m.retry) m.retry.outcome = waited ? "retried" : "cancelled";
    });
    await this.updateLatest("api_req_started", (m) => {
      if (waited) m.apiRequest = requestInFlight(m.apiRequest);
      else if (m.apiRequest) m.apiRequest.outcome = "cancelled";
    });
    return waited ? "retry" : "stop";
  }

  /** The request failed for good (unless the person retries): its row stops spinning and says why. */
  private markRequest(error?: ApiError): Promise<void> {
    return this.updateLatest("api_req_started", (m) => {
      if (!m.apiRequest) return;
      m.apiRequest.outcome = "failed";
      if (error) m.apiRequest.error ??= error.message;
      if (error?.kind === "auth" && (error.status === 401 || error.status === 403)) m.apiRequest.keyRefused = true;
    });
  }

  /** Changes the newest message of a kind: the current round's request row, or the retry just shown. */
  private updateLatest(kind: "api_req_started" | "error_retry", change: (message: ChatMessage) => void): Promise<void> {
    return this.deps.withStateLock(() => {
      const latest = this.deps.messages.chatMessages.findLast((m) => m.type === "say" && m.say === kind);
      if (latest) this.deps.messages.update(latest.ts, change);
    });
  }

  /** Drops the oldest rounds so the request fits; false when there is nothing left to drop. */
  private async truncate(): Promise<boolean> {
    this.truncatedThisRound = true;
    if (this.deps.beforeCompact && !(await this.deps.beforeCompact(this.deps.messages.apiHistory.length))) return false;
    const removed = await this.deps.withStateLock(() => {
      const result = truncateConversation(this.deps.messages.apiHistory, 0.5);
      if (result.removed > 0) this.deps.messages.setApiHistory(result.history);
      return result.removed;
    });
    if (removed === 0) return false;
    await this.deps.say(
      "context_truncated",
      `The conversation no longer fit the model's context window: the ${removed} oldest messages after the task were removed and the request is being retried.`,
    );
    return true;
  }
}

/** The error's message already names the status (classify-error.ts): it is not repeated here. */
function describe(error: ApiError): string {
  return `API request failed: ${error.message}`;
}

/** A request sent again: spinning, without the failure of the attempt before. */
function requestInFlight(info: ApiRequestInfo | undefined): ApiRequestInfo | undefined {
  if (!info) return undefined;
  const { outcome: _outcome, error: _error, keyRefused: _keyRefused, ...counts } = info;
  return counts;
}
