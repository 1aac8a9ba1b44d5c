import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { Row } from "./Row";

/** The model proposes to continue in a fresh task that carries this context. */
export function NewTaskRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="new-file" title="Tandem wants to start a new task with this context">
      <div className="quoted">
        <Markdown text={message.text} streaming={message.partial} />
      </div>
    </Row>
  );
}
