import type { ChatMessage } from "../../../src/shared/messages";
import { Markdown } from "./Markdown";
import { Row } from "./Row";

/** The task's result. As an ask it also invites a reply that continues the task. */
export function CompletionRow({ message }: { message: ChatMessage }) {
  const asking = message.type === "ask";
  return (
    <Row message={message} icon="pass" title="Task Completed" tone="success">
      {message.text ? <Markdown text={message.text} streaming={message.partial} /> : null}
      {asking && <div className="muted-text">Reply to keep working on this task, or start a new one.</div>}
    </Row>
  );
}
