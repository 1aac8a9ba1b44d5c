import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { Row } from "./Row";

/** A question from the model; its options become buttons below the list while it is open. */
export function FollowupRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="question" title="Tandem has a question">
      <Markdown text={message.text} streaming={message.partial} />
      {message.options && message.options.length > 0 && (
        <ul className="followup-options">
          {message.options.map((option, i) => (
            <li key={i}>{option}</li>
          ))}
        </ul>
      )}
    </Row>
  );
}
