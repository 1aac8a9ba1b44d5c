import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { withoutOptionList } from "./offered-options";
import { OptionList, useQuestionOpen } from "./OptionList";
import { Row } from "./Row";

/** A question from the model; its options are shown once (the buttons while it is open, then a list). */
export function FollowupRow({ message }: { message: ChatMessage }) {
  const open = useQuestionOpen(message.ts);
  return (
    <Row message={message} icon="question" title="Tandem has a question">
      <Markdown text={withoutOptionList(message.text ?? "", message.options ?? [])} streaming={message.partial} />
      {!open && <OptionList options={message.options} />}
    </Row>
  );
}
