import { useEffect, useState } from "react";
import { VscodeButton } from "../components/vscode-elements";
import { useExtensionState, usePost } from "../use-extension-state";

/**
 * Test connection: one tiny request with the settings as they are. The outcome is read out (a
 * status region) and stays until the next test; the button waits while the request runs.
 */
export function ConnectionTest() {
  const post = usePost();
  const result = useExtensionState((state) => state.connectionTest);
  const [waitingFor, setWaitingFor] = useState<number | undefined>(undefined);
  const testing = waitingFor !== undefined && (result?.id ?? 0) <= waitingFor;
  useEffect(() => {
    if (waitingFor !== undefined && result && result.id > waitingFor) setWaitingFor(undefined);
  }, [result, waitingFor]);
  return (
    <div className="field">
      <div className="inline-controls">
        <VscodeButton
          secondary
          disabled={testing}
          onClick={() => {
            setWaitingFor(result?.id ?? 0);
            post({ type: "testConnection" });
          }}
        >
          {testing ? "Testing…" : "Test connection"}
        </VscodeButton>
      </div>
      <div className={`field-help connection-result ${result && !testing ? (result.ok ? "ok" : "failed") : ""}`} role="status">
        {testing ? "Sending one short request…" : result ? result.text : ""}
      </div>
    </div>
  );
}
