import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

/** An interrupted task that can pick up where it stopped. */
export function ResumeTaskRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="debug-pause" title="This task was interrupted" tone="warning">
      <div className="muted-text">{message.text || "Resume it to continue where it left off."}</div>
    </Row>
  );
}
