import type { ChatMessage } from "../../../src/shared/messages";
import { ImageStrip } from "../components/ImageStrip";
import { CheckpointMarker } from "./CheckpointMarker";
import { isEditable, MessageEdit } from "./MessageEdit";
import { Row } from "./Row";

/**
 * The person's task text, first in the list. Once the task's initial checkpoint is made (the
 * workspace as the task found it), it carries it: compare with or restore to before the first step.
 * Edit begins the task again from new text.
 */
export function TaskRow({ message }: { message: ChatMessage }) {
  const footer = message.checkpoint && <CheckpointMarker ts={message.ts} label="Checkpoint before the task" point="taskStart" />;
  return (
    <Row message={message} icon="tasklist" title="Task" tone="user" footer={footer}>
      <div className="user-text">{message.text}</div>
      <ImageStrip images={message.images} />
      {isEditable(message) && <MessageEdit message={message} />}
    </Row>
  );
}
