import { VscodeCollapsible } from "../components/vscode-elements";
import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

/** Model reasoning, folded away unless it is still streaming. */
export function ReasoningRow({ message }: { message: ChatMessage }) {
  return (
    <Row message={message}>
      <VscodeCollapsible className="reasoning" heading={message.partial ? "Thinking…" : "Thinking"} open={Boolean(message.partial)}>
        <div className="reasoning-text">{message.text}</div>
      </VscodeCollapsible>
    </Row>
  );
}
