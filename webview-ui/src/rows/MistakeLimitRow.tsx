import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { Row } from "./Row";

/** The model made too many mistakes in a row; the person decides whether it goes on. */
export function MistakeLimitRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="warning" title="Tandem is having trouble" tone="warning">
      <Markdown text={message.text || "The model made several mistakes in a row. Guide it with a message, or let it try again."} />
    </Row>
  );
}
