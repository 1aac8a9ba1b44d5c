import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

const TITLE = "This task was interrupted";

/** An interrupted task that can pick up where it stopped. */
export function ResumeTaskRow({ message }: { message: ChatMessage }) {
  // The question repeats the title ("This task was interrupted. Resume it?"): show only the rest.
  const detail = (message.text ?? "").replace(/^This task was interrupted\.?\s*/i, "").trim();
  return (
    <Row message={message} icon="debug-pause" title={TITLE} tone="warning">
      <div className="muted-text">{detail || "Resume it to continue where it left off."}</div>
    </Row>
  );
}
