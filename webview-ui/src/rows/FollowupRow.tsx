import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { OptionList } from "./OptionList";
import { Row } from "./Row";

/** A question from the model; its options become buttons below the list while it is open. */
export function FollowupRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="question" title="Tandem has a question">
      <Markdown text={message.text} streaming={message.partial} />
      <OptionList options={message.options} />
    </Row>
  );
}
