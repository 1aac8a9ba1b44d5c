import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { withoutOptionList } from "./offered-options";
import { OptionList, useQuestionOpen } from "./OptionList";
import { Row } from "./Row";

/** Plan mode: the model's plan or its question about it; its options are shown once (the buttons while it waits, then a list). */
export function PlanRow({ message }: { message: ChatMessage }) {
  const open = useQuestionOpen(message.ts);
  return (
    <Row message={message} icon="lightbulb" title="Tandem's plan">
      <Markdown text={withoutOptionList(message.text ?? "", message.options ?? [])} streaming={message.partial} />
      {!open && <OptionList options={message.options} />}
    </Row>
  );
}
