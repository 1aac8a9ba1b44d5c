import type { ChatMessage, RetryInfo } from "../../../src/shared/messages";
import { Row } from "./Row";
import { useCountdown } from "./use-countdown";

/**
 * A failed request that is retried automatically: a live countdown while it waits, then (the host
 * says when) a record that it was retried or that the task was cancelled first.
 */
export function RetryRow({ message }: { message: ChatMessage }) {
  const retry = message.retry;
  const waiting = retry?.outcome === undefined;
  const left = useCountdown(`${message.ts}:${retry?.attempt ?? 0}`, waiting ? (retry?.delaySeconds ?? 0) : 0);
  return (
    <Row message={message} icon="sync" spin={waiting && left <= 0} tone={waiting ? "warning" : "muted"} title={retryTitle(retry, left)}>
      <div className="muted-text">{retry?.reason ?? message.text}</div>
    </Row>
  );
}

function retryTitle(retry: RetryInfo | undefined, left: number): string {
  const attempt = retry ? ` (attempt ${retry.attempt} of ${retry.maxAttempts})` : "";
  if (retry?.outcome === "retried") return `Retried after ${retry.delaySeconds}s${attempt}`;
  if (retry?.outcome === "cancelled") return `Retry cancelled${attempt}`;
  return left > 0 ? `Retrying in ${left}s${attempt}` : `Retrying now${attempt}`;
}
