import { VscodeButton } from "../components/vscode-elements";
import { useState } from "react";
import type { HistoryItem, HistoryMatch } from "../../../src/shared/protocol";
import { Icon } from "../components/Icon";
import { UsageStats } from "../components/UsageStats";
import { formatDate } from "../format";
import { usePost } from "../use-extension-state";
import { Highlighted } from "./Highlighted";
import { shownStatus, STATUS_LABELS } from "./history-status";

/**
 * One saved task, with how it ended and its totals (the numbers its task header showed), its star,
 * and where a search matched it. A task the index still calls running, other than the open one,
 * was interrupted: its host went away. Deleting takes a second click, since it cannot be undone.
 */
export function HistoryEntry({ item, match, isOpen, onResumed }: { item: HistoryItem; match?: HistoryMatch; isOpen: boolean; onResumed: () => void }) {
  const post = usePost();
  const [confirming, setConfirming] = useState(false);
  const status = shownStatus(item, isOpen);
  const favorite = item.favorite === true;
  return (
    <div className="history-entry">
      <div className="history-meta">
        <button
          type="button"
          className={`icon-button history-star${favorite ? " starred" : ""}`}
          aria-label="Favourite"
          aria-pressed={favorite}
          title={favorite ? "A favourite: Delete all keeps it. Click to unstar." : "Star as a favourite: Delete all keeps it."}
          onClick={() => post({ type: "setFavorite", id: item.id, favorite: !favorite })}
        >
          <Icon name={favorite ? "star-full" : "star-empty"} />
        </button>
        <span className="history-date">{formatDate(item.startedAt)}</span>
        {status && <span className={`badge history-status status-${status}`}>{STATUS_LABELS[status]}</span>}
      </div>
      <div className="history-text">
        <Highlighted text={item.text} ranges={match?.field === "text" ? match.ranges : undefined} />
      </div>
      {match?.snippet && (
        <p className="history-snippet">
          <span className="history-snippet-by">{match.snippet.by === "person" ? "You: " : "Tandem: "}</span>
          <Highlighted text={match.snippet.text} ranges={match.ranges} />
        </p>
      )}
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
        <VscodeButton secondary title="Save the task as Markdown: the conversation, tool calls and costs" onClick={() => post({ type: "exportTask", id: item.id })}>
          Export
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
    </div>
  );
}
