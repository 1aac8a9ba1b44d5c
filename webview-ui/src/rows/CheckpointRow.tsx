import type { ChatMessage } from "../../../src/shared/messages";
import { CheckpointMarker } from "./CheckpointMarker";
import { rowKind } from "./Row";

/** A round changed files and the workspace was saved: a compact marker line, as in Cline. */
export function CheckpointRow({ message }: { message: ChatMessage }) {
  return (
    <div className="row tone-muted checkpoint-row" data-row={rowKind(message)}>
      {message.checkpoint ? (
        <CheckpointMarker ts={message.ts} label="Checkpoint" point="checkpoint" />
      ) : (
        // Only a malformed row lacks its checkpoint: say what it is, offer nothing to act on.
        <div className="checkpoint-marker muted-text">Checkpoint</div>
      )}
    </div>
  );
}
