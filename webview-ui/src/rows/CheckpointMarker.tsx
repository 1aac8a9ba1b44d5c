import { useState } from "react";
import { RESTORE_SCOPES, type RestoreScope } from "../../../src/shared/checkpoints";
import { Icon } from "../components/Icon";
import { usePanel } from "../state/panel-context";
import { useCanRestore, useExtensionState, usePost } from "../use-extension-state";
import { RESTORE_CHOICES, restoreWarning, type CheckpointPoint } from "./restore-choices";

const BUSY = "Tandem is working: restore once it asks you something or stops.";

/**
 * One checkpoint's line: Compare (the diff of that point against the workspace now) and Restore,
 * which offers the three scopes and then asks in the panel, naming what will be lost, before it
 * posts anything. Every restore loses something, so every one is confirmed.
 */
export function CheckpointMarker({ ts, label, point }: { ts: number; label: string; point: CheckpointPoint }) {
  const post = usePost();
  const canRestore = useCanRestore();
  // "choosing" shows the three scopes; a scope is the one being confirmed.
  const [stage, setStage] = useState<"closed" | "choosing" | RestoreScope>("closed");
  return (
    <div className="checkpoint" role="group" aria-label={label}>
      <div className="checkpoint-marker">
        <Icon name="bookmark" />
        <span className="checkpoint-label">{label}</span>
        <span className="checkpoint-rule" aria-hidden="true" />
        <button type="button" className="text-button" onClick={() => post({ type: "compareCheckpoint", ts })}>
          Compare
        </button>
        <button
          type="button"
          className="text-button"
          aria-expanded={stage !== "closed"}
          disabled={!canRestore}
          title={canRestore ? undefined : BUSY}
          onClick={() => setStage(stage === "closed" ? "choosing" : "closed")}
        >
          Restore
        </button>
      </div>
      {stage === "choosing" && <RestoreChoices onChoose={setStage} onCancel={() => setStage("closed")} />}
      {stage !== "closed" && stage !== "choosing" && (
        <RestoreConfirmation
          ts={ts}
          scope={stage}
          point={point}
          canRestore={canRestore}
          onConfirm={() => {
            post({ type: "restoreCheckpoint", ts, scope: stage });
            setStage("closed");
          }}
          onCancel={() => setStage("closed")}
        />
      )}
    </div>
  );
}

function RestoreChoices({ onChoose, onCancel }: { onChoose: (scope: RestoreScope) => void; onCancel: () => void }) {
  return (
    <div className="restore-panel" role="group" aria-label="Restore choices">
      {RESTORE_SCOPES.map((scope) => (
        <div key={scope} className="restore-choice">
          <button type="button" className="text-button" onClick={() => onChoose(scope)}>
            {RESTORE_CHOICES[scope].label}
          </button>
          <div className="muted-text">{RESTORE_CHOICES[scope].help}</div>
        </div>
      ))}
      <button type="button" className="text-button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

interface ConfirmationProps {
  ts: number;
  scope: RestoreScope;
  point: CheckpointPoint;
  canRestore: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

function RestoreConfirmation({ ts, scope, point, canRestore, onConfirm, onCancel }: ConfirmationProps) {
  const { store } = usePanel();
  // Re-read as rows arrive, so the count named is the one a restore would remove.
  useExtensionState((state) => state.messageCount);
  const { label } = RESTORE_CHOICES[scope];
  return (
    <div className="restore-panel restore-confirm" role="group" aria-label={`${label}?`}>
      <div className="restore-question">{label}?</div>
      <p className="restore-warning">{restoreWarning(scope, point, store.messagesAfter(ts))}</p>
      {!canRestore && <p className="muted-text">{BUSY}</p>}
      <div className="restore-buttons">
        <button type="button" className="danger-button" disabled={!canRestore} onClick={onConfirm}>
          {label}
        </button>
        {/* Focus on the harmless answer: Enter after a stray click changes nothing. */}
        <button type="button" className="secondary-button" autoFocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
