import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

/** A command's output as it arrives; as an ask, the notice that the command is still running. */
export function CommandOutputRow({ message }: { message: ChatMessage }) {
  if (message.type === "ask") {
    return (
      <Row message={message} icon="loading" spin title="Command still running">
        <div className="muted-text">{message.text}</div>
      </Row>
    );
  }
  return (
    <Row message={message} icon={message.partial ? "loading" : "output"} spin={Boolean(message.partial)} title="Output" tone="muted">
      <pre className="terminal-output">{message.text}</pre>
    </Row>
  );
}
