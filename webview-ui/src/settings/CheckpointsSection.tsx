import { useEffect, useState } from "react";
import { VscodeButton, VscodeCheckbox } from "../components/vscode-elements";
import { formatBytes } from "../format";
import { useExtensionState, usePost } from "../use-extension-state";
import { Field } from "./Field";

/**
 * Checkpoints on or off (tandem.checkpoints.enabled), and the store they take on disk: measured by
 * the host each time the settings open, since it grows with every task, and deleted as a whole
 * only on a second click, since no task can be compared or restored afterwards.
 */
export function CheckpointsSection({ enabled, onChange }: { enabled: boolean; onChange: (enabled: boolean) => void }) {
  const post = usePost();
  const bytes = useExtensionState((state) => state.checkpointStoreBytes);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    post({ type: "checkpointStore", action: "measure" });
  }, [post]);
  return (
    <section className="settings-section" aria-labelledby="checkpoints-heading">
      <h3 id="checkpoints-heading">Checkpoints</h3>
      <Field label="Checkpoints" help="A copy of the workspace after each step that changed files, kept in Tandem's own store (never in your git), to compare and restore.">
        <VscodeCheckbox data-setting="checkpoints" checked={enabled} onChange={(event) => onChange((event.target as HTMLInputElement).checked)}>
          Save checkpoints
        </VscodeCheckbox>
      </Field>
      <Field label="Stored checkpoints" help="Every task's checkpoints. Deleting them cannot be undone: no step can be compared or restored afterwards.">
        <div className="checkpoint-store">
          <span role="status" aria-label="Checkpoint store size">
            {bytes === undefined ? "Measuring…" : formatBytes(bytes)}
          </span>
          {confirming ? (
            <>
              <VscodeButton
                secondary
                onClick={() => {
                  post({ type: "checkpointStore", action: "clean" });
                  setConfirming(false);
                }}
              >
                Confirm: delete all checkpoints
              </VscodeButton>
              <VscodeButton secondary onClick={() => setConfirming(false)}>
                Keep
              </VscodeButton>
            </>
          ) : (
            <VscodeButton secondary onClick={() => setConfirming(true)}>
              Delete all checkpoints
            </VscodeButton>
          )}
        </div>
      </Field>
    </section>
  );
}
