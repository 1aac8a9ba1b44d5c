import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

/** A shell command, asked for or run. */
export function CommandRow({ message }: { message: ChatMessage }) {
  const asking = message.type === "ask";
  return (
    <Row message={message} icon="terminal" title={asking ? "Tandem wants to run this command" : "Tandem ran this command"}>
      <pre className="command-line">
        <span className="prompt" aria-hidden="true">$ </span>
        {message.text}
      </pre>
    </Row>
  );
}
