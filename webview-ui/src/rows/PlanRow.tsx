import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { OptionList } from "./OptionList";
import { Row } from "./Row";

/** Plan mode: the model's plan or its question about it; its options become buttons below the list while it waits. */
export function PlanRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message} icon="lightbulb" title="Tandem's plan">
      <Markdown text={message.text} streaming={message.partial} />
      <OptionList options={message.options} />
    </Row>
  );
}
