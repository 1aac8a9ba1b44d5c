import { VscodeButton } from "../components/vscode-elements";
import { useState } from "react";
import type { HistoryItem } from "../../../src/shared/protocol";
import { UsageStats } from "../components/UsageStats";
import { formatDate } from "../format";
import { usePost } from "../use-extension-state";
import { shownStatus, STATUS_LABELS } from "./history-status";

/**
 * One saved task, with how it ended and its totals (the numbers its task header showed). A task the
 * index still calls running, other than the open one, was interrupted: its host went away.
 * Deleting takes a second click, since it cannot be undone.
 */
export function HistoryEntry({ item, isOpen, onResumed }: { item: HistoryItem; isOpen: boolean; onResumed: () => void }) {
  const post = usePost();
  const [confirming, setConfirming] = useState(false);
  const status = shownStatus(item, isOpen);
  return (
    <li className="history-entry">
      <div className="history-meta">
        <span>{formatDate(item.startedAt)}</span>
        {status && <span className={`badge history-status status-${status}`}>{STATUS_LABELS[status]}</span>}
      </div>
      <div className="history-text">{item.text}</div>
      <UsageStats totals={item.usage} />
      <div className="history-actions">
        <VscodeButton
          onClick={() => {
            post({ type: "resumeTask", id: item.id });
            onResumed();
          }}
        >
          {status === "completed" ? "Open" : "Resume"}
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
