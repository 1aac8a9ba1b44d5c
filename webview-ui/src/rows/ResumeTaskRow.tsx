import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

const INTERRUPTED = "This task was interrupted";
/** The host's question after "restore task" starts so (resume.ts). */
const RESTORED = /^The task was taken back to this checkpoint\.?\s*/i;

/** A task that can pick up where it stopped: interrupted, or taken back to a checkpoint. */
export function ResumeTaskRow({ message }: { message: ChatMessage }) {
  const text = message.text ?? "";
  const restored = RESTORED.test(text);
  // The question repeats the title ("This task was interrupted. Resume it?"): show only the rest.
  const detail = text.replace(restored ? RESTORED : /^This task was interrupted\.?\s*/i, "").trim();
  return (
    <Row message={message} icon={restored ? "history" : "debug-pause"} title={restored ? "Taken back to this checkpoint" : INTERRUPTED} tone={restored ? undefined : "warning"}>
      <div className="muted-text">{detail || "Resume it to continue where it left off."}</div>
    </Row>
  );
}
