import { VscodeButton } from "../components/vscode-elements";
import { useState } from "react";
import type { HistoryItem } from "../../../src/shared/protocol";
import { formatCost, formatDate, formatTokens } from "../format";
import { usePost } from "../use-extension-state";

/** One saved task. Deleting takes a second click, since it cannot be undone. */
export function HistoryEntry({ item, onResumed }: { item: HistoryItem; onResumed: () => void }) {
  const post = usePost();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="history-entry">
      <div className="history-meta">
        <span>{formatDate(item.startedAt)}</span>
        <span>
          ↑ {formatTokens(item.tokensIn)} ↓ {formatTokens(item.tokensOut)} · {formatCost(item.totalCost)}
        </span>
      </div>
      <div className="history-text">{item.text}</div>
      <div className="history-actions">
        <VscodeButton
          onClick={() => {
            post({ type: "resumeTask", id: item.id });
            onResumed();
          }}
        >
          Resume
        </VscodeButton>
        {confirming ? (
          <>
            <VscodeButton secondary onClick={() => post({ type: "deleteTask", id: item.id })}>
              Confirm delete
            </VscodeButton>
            <VscodeButton secondary onClick={() => setConfirming(false)}>
              Keep
            </VscodeButton>
          </>
        ) : (
          <VscodeButton secondary onClick={() => setConfirming(true)}>
            Delete
          </VscodeButton>
        )}
      </div>
    </li>
  );
}
