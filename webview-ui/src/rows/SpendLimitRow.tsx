import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { Row } from "./Row";

/** The task reached a spending cap the person set: what it spent, and the three ways on. */
export function SpendLimitRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="credit-card" title="Spending cap reached" tone="warning">
      <Markdown text={message.text || "The task reached its spending cap. Continue with one more request, raise the cap, or stop."} />
    </Row>
  );
}
