import { VscodeButton, VscodeTextfield } from "../components/vscode-elements";
import { useMemo, useState } from "react";
import { useExtensionState } from "../use-extension-state";
import { HistoryEntry } from "./HistoryEntry";

/** Saved tasks, newest first, each resumable and deletable. */
export function HistoryView({ onDone }: { onDone: () => void }) {
  const history = useExtensionState((state) => state.history);
  const openId = useExtensionState((state) => (state.running ? state.task?.id : undefined));
  const [filter, setFilter] = useState("");
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return [...history]
      .filter((item) => !needle || item.text.toLowerCase().includes(needle))
      .sort((a, b) => b.startedAt - a.startedAt);
  }, [history, filter]);
  return (
    <div className="history-view">
      <header className="view-header">
        <h2>History</h2>
        <VscodeButton onClick={onDone}>Done</VscodeButton>
      </header>
      <VscodeTextfield
        aria-label="Filter tasks"
        label="Filter tasks"
        placeholder="Filter tasks"
        value={filter}
        onInput={(event) => setFilter((event.target as HTMLInputElement).value)}
      />
      {history.length === 0 && <p className="muted-text">No saved tasks yet.</p>}
      {history.length > 0 && shown.length === 0 && <p className="muted-text">No task matches “{filter}”.</p>}
      <ul className="history-list">
        {shown.map((item) => (
          <HistoryEntry key={item.id} item={item} isOpen={item.id === openId} onResumed={onDone} />
        ))}
      </ul>
    </div>
  );
}
