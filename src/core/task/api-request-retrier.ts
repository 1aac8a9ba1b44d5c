import type { ApiError } from "../../api/errors";
import type { ApiRequestInfo, ChatMessage, RetryInfo } from "../../shared/messages";
import { abortableSleep } from "../util/abortable-sleep";
import type { TaskScope } from "./task-scope";
import { DEFAULT_RETRY_OPTIONS, planRetry, type RetryOptions } from "./retry-policy";

export type { RetryOptions } from "./retry-policy";

export type RetryDecision = "retry" | "stop";

/**
 * What the Task does after a failed request: have the context shortened once when it overflowed,
 * retry with backoff (shown to the person as a countdown), and, once the automatic attempts are
 * spent or the error cannot be retried, ask the person. Every wait ends at once on cancel.
 * One per round: its counters are that round's budget and end with it.
 */
export class ApiRequestRetrier {
  private readonly options: RetryOptions;
  private attempts = 0;
  private truncatedThisRound = false;

  constructor(
    private readonly scope: TaskScope,
    options?: Partial<RetryOptions>,
  ) {
    this.options = { ...DEFAULT_RETRY_OPTIONS, ...options };
  }

  /** Automatic retries per round, read at each failure (a setting the person may change mid-task). */
  private maxRetries(): number {
    return this.scope.settings().requestRetries;
  }

  async afterFailure(error: ApiError): Promise<RetryDecision> {
    if (error.kind === "aborted" || this.scope.signal.aborted) return "stop";
    if (error.kind === "context_window_exceeded" && !this.truncatedThisRound) {
      // Once a round: a provider that still refuses gets asked about like any other failure.
      this.truncatedThisRound = true;
      if (await this.scope.participants.overflowed()) return "retry";
    }
    const plan = planRetry(error, this.attempts, this.maxRetries(), this.options);
    if (plan.action === "retry") {
      this.attempts = plan.attempt;
      return this.waitAndRetry(plan.delayMs, plan.attempt, describe(error));
    }
    if (plan.action === "ask_long_wait") {
      const seconds = Math.ceil(plan.delayMs / 1000);
      await this.markRequest(error);
      const answer = await this.scope.ask(
        "api_req_failed",
        `${describe(error)}\nThe provider asks to wait ${seconds} seconds before trying again. Wait and retry?`,
      );
      if (answer.type !== "yes" || this.scope.signal.aborted) return "stop";
      this.attempts++;
      return this.waitAndRetry(plan.delayMs, this.attempts, describe(error));
    }
    await this.markRequest(error);
    return this.askPerson(describe(error));
  }

  async afterEmptyAnswer(): Promise<RetryDecision> {
    const reason = "The model returned an empty answer (no text and no tool use).";
    await this.scope.say("error", reason);
    if (this.attempts < this.maxRetries()) {
      this.attempts++;
      return this.waitAndRetry(this.options.baseDelayMs, this.attempts, reason);
    }
    await this.markRequest();
    return this.askPerson(reason);
  }

  private async askPerson(reason: string): Promise<RetryDecision> {
    const answer = await this.scope.ask("api_req_failed", reason);
    if (answer.type !== "yes" || this.scope.signal.aborted) return "stop";
    this.attempts = 0;
    this.truncatedThisRound = false;
    await this.updateLatest("api_req_started", (m) => (m.apiRequest = requestInFlight(m.apiRequest)));
    return "retry";
  }

  private async waitAndRetry(delayMs: number, attempt: number, reason: string): Promise<RetryDecision> {
    const retry: RetryInfo = {
      attempt,
      maxAttempts: this.maxRetries(),
      delaySeconds: Math.round(delayMs / 100) / 10,
      reason,
    };
    await this.updateLatest("api_req_started", (m) => {
      if (m.apiRequest) m.apiRequest.outcome = "retried";
    });
    await this.scope.say("error_retry", `${reason} Retrying in ${retry.delaySeconds}s (attempt ${attempt}/${retry.maxAttempts}).`, { retry });
    const waited = await abortableSleep(delayMs, this.scope.signal);
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
    return this.scope.withStateLock(() => {
      const latest = this.scope.messages.chatMessages.findLast((m) => m.type === "say" && m.say === kind);
      if (latest) this.scope.messages.update(latest.ts, change);
    });
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
