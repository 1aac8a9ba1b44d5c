import type { ChatMessage } from "../../../src/shared/messages";
import { ImageStrip } from "../components/ImageStrip";
import { Row } from "./Row";

/** What the person answered, shown as their own bubble. */
export function UserFeedbackRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="account" title="You" tone="user">
      {message.text && <div className="user-text">{message.text}</div>}
      <ImageStrip images={message.images} />
    </Row>
  );
}
