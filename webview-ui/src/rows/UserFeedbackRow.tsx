import type { ChatMessage } from "../../../src/shared/messages";
import { ImageStrip } from "../components/ImageStrip";
import { isEditable, MessageEdit } from "./MessageEdit";
import { Row } from "./Row";

/** What the person answered, shown as their own bubble; Edit takes the task back to it with new text. */
export function UserFeedbackRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="account" title="You" tone="user">
      {message.text && <div className="user-text">{message.text}</div>}
      <ImageStrip images={message.images} />
      {isEditable(message) && <MessageEdit message={message} />}
    </Row>
  );
}
