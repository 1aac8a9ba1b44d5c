import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

/** Plain information, and the note that the conversation was shortened to fit the context window. */
export function InfoRow({ message }: { message: ChatMessage }) {
  const truncated = message.type === "say" && message.say === "context_truncated";
  return (
    <Row
      message={message}
      icon={truncated ? "fold" : "info"}
      title={truncated ? "Context truncated" : message.text}
      tone="muted"
    >
      {truncated && message.text ? <div className="muted-text">{message.text}</div> : null}
    </Row>
  );
}
