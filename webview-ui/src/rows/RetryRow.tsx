import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";
import { useCountdown } from "./use-countdown";

/** A failed request that will be retried automatically, with a live countdown. */
export function RetryRow({ message }: { message: ChatMessage }) {
  const retry = message.retry;
  const left = useCountdown(`${message.ts}:${retry?.attempt ?? 0}`, retry?.delaySeconds ?? 0);
  const attempt = retry ? ` (attempt ${retry.attempt} of ${retry.maxAttempts})` : "";
  const title = left > 0 ? `Retrying in ${left}s${attempt}` : `Retrying now${attempt}`;
  return (
    <Row message={message} icon="sync" spin={left <= 0} tone="warning" title={title}>
      <div className="muted-text">{retry?.reason ?? message.text}</div>
    </Row>
  );
}
