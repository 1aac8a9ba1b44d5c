import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { Row } from "./Row";

/** Model prose. */
export function TextRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message}>
      <Markdown text={message.text} streaming={message.partial} />
    </Row>
  );
}
