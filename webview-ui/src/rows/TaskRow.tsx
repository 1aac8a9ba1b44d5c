import type { ChatMessage } from "../../../src/shared/messages";
import { ImageStrip } from "../components/ImageStrip";
import { Row } from "./Row";

/** The person's task text, first in the list. */
export function TaskRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="tasklist" title="Task" tone="user">
      <div className="user-text">{message.text}</div>
      <ImageStrip images={message.images} />
    </Row>
  );
}
