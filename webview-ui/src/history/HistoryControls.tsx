import { useEffect, useRef, useState } from "react";
import { HISTORY_SORT_LABELS, HISTORY_SORTS, isHistorySort, type HistorySort } from "../../../src/shared/history-view";
import type { HistoryScope } from "../../../src/shared/protocol";
import { VscodeButton, VscodeCheckbox, VscodeOption, VscodeSingleSelect, VscodeTextfield } from "../components/vscode-elements";
import { usePost } from "../use-extension-state";

export interface HistoryControlsProps {
  query: string;
  onQuery(query: string): void;
  sort: HistorySort;
  onSort(sort: HistorySort): void;
  scope: HistoryScope;
  /** Unset when no workspace is open: then every task is shown and there is nothing to switch. */
  onScope?(scope: HistoryScope): void;
  /** How many tasks "Delete all" would delete now (the host decides again when asked). */
  deletable: number;
}

/** History's search field, sort, workspace switch and "Delete all". */
export function HistoryControls({ query, onQuery, sort, onSort, scope, onScope, deletable }: HistoryControlsProps) {
  return (
    <div className="history-controls">
      <VscodeTextfield
        aria-label="Search tasks and conversations"
        label="Search tasks and conversations"
        placeholder="Search tasks and conversations"
        value={query}
        onInput={(event) => onQuery((event.target as HTMLInputElement).value)}
      />
      <div className="history-options">
        <VscodeSingleSelect
          aria-label="Sort by"
          label="Sort by"
          value={sort}
          onChange={(event) => {
            const value = (event.target as HTMLSelectElement).value;
            if (isHistorySort(value)) onSort(value);
          }}
        >
          {HISTORY_SORTS.map((option) => (
            <VscodeOption key={option} value={option}>
              {HISTORY_SORT_LABELS[option]}
            </VscodeOption>
          ))}
        </VscodeSingleSelect>
        {onScope && (
          <VscodeCheckbox data-setting="all-workspaces" checked={scope === "all"} onChange={(event) => onScope((event.target as HTMLInputElement).checked ? "all" : "workspace")}>
            All workspaces
          </VscodeCheckbox>
        )}
        <DeleteAll scope={scope} count={deletable} />
      </div>
    </div>
  );
}

/** "Delete all", then a confirmation that says how many go and what stays. */
function DeleteAll({ scope, count }: { scope: HistoryScope; count: number }) {
  const post = usePost();
  const [confirming, setConfirming] = useState(false);
  const cancel = useRef<React.ComponentRef<typeof VscodeButton>>(null);
  useEffect(() => {
    // The keyboard lands on the safe choice, once the button has rendered itself.
    if (confirming) void cancel.current?.updateComplete.then(() => cancel.current?.focus());
  }, [confirming]);
  if (!confirming) {
    return (
      <VscodeButton secondary disabled={count === 0} title="Delete every task shown here but your favourites and the open task" onClick={() => setConfirming(true)}>
        Delete all
      </VscodeButton>
    );
  }
  const where = scope === "all" ? "in every workspace" : "of this workspace";
  const tasks = `${count} task${count === 1 ? "" : "s"}`;
  return (
    <div
      className="history-confirm"
      role="group"
      aria-label="Delete all?"
      onKeyDown={(event) => {
        if (event.key === "Escape") setConfirming(false);
      }}
    >
      <p>
        Delete {tasks} {where}? Favourites and the open task are kept. This cannot be undone.
      </p>
      <VscodeButton
        onClick={() => {
          post({ type: "deleteTasks", scope });
          setConfirming(false);
        }}
      >
        Delete {tasks}
      </VscodeButton>
      <VscodeButton secondary ref={cancel} onClick={() => setConfirming(false)}>
        Cancel
      </VscodeButton>
    </div>
  );
}
