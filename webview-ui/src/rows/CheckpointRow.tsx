import { checkpointName } from "../../../src/shared/checkpoints";
import type { ChatMessage } from "../../../src/shared/messages";
import { usePanel } from "../state/panel-context";
import { useExtensionState } from "../use-extension-state";
import { CheckpointMarker } from "./CheckpointMarker";
import { rowKind } from "./Row";

/**
 * A round changed files and the workspace was saved: a compact marker line, as in Cline, named by
 * its number ("Checkpoint 2"), as its Compare tab and `tandem checkpoints list` name it.
 */
export function CheckpointRow({ message }: { message: ChatMessage }) {
  const { store } = usePanel();
  const number = useExtensionState(() => store.checkpointNumber(message.ts));
  return (
    <div className="row tone-muted checkpoint-row" data-row={rowKind(message)}>
      {message.checkpoint ? (
        <CheckpointMarker ts={message.ts} label={number === undefined ? "Checkpoint" : checkpointName(number)} point="checkpoint" />
      ) : (
        // Only a malformed row lacks its checkpoint: say what it is, offer nothing to act on.
        <div className="checkpoint-marker muted-text">Checkpoint</div>
      )}
    </div>
  );
}
