import { useMemo, useState } from "react";
import { inScope, isHistorySort, tasksToDelete, type HistorySort } from "../../../src/shared/history-view";
import type { HistoryScope } from "../../../src/shared/protocol";
import { VscodeButton } from "../components/vscode-elements";
import { usePersistedState } from "../state/use-persisted-state";
import { useExtensionState } from "../use-extension-state";
import { HistoryControls } from "./HistoryControls";
import { HistoryList } from "./HistoryList";
import { historyRows, shownScope } from "./history-rows";
import { useHistorySearch } from "./use-history-search";

const isScope = (value: unknown): value is HistoryScope => value === "workspace" || value === "all";

/**
 * Saved tasks: this workspace's by default (a switch shows every workspace's), sorted as chosen,
 * searched by the host over their text and conversation; each resumable, exportable, deletable and
 * starred as a favourite, which "Delete all" keeps.
 */
export function HistoryView({ onDone }: { onDone: () => void }) {
  const history = useExtensionState((state) => state.history);
  const workspace = useExtensionState((state) => state.workspace);
  const task = useExtensionState((state) => state.task);
  const running = useExtensionState((state) => state.running);
  const [query, setQuery] = useState("");
  const [sort, setSort] = usePersistedState<HistorySort>("historySort", "newest", isHistorySort);
  const [chosenScope, setScope] = usePersistedState<HistoryScope>("historyScope", "workspace", isScope);
  const scope = shownScope(chosenScope, workspace);
  const { matches, pending, total } = useHistorySearch(query, scope);
  const rows = useMemo(() => historyRows({ history, workspace, scope, sort, matches }), [history, workspace, scope, sort, matches]);
  const inScopeCount = useMemo(() => history.filter((item) => inScope(item, scope, workspace)).length, [history, scope, workspace]);
  const deletable = useMemo(() => tasksToDelete(history, scope, workspace, task?.id).length, [history, scope, workspace, task?.id]);
  const searching = matches !== undefined;
  return (
    <div className="history-view">
      <header className="view-header">
        <h2>History</h2>
        <VscodeButton onClick={onDone}>Done</VscodeButton>
      </header>
      <HistoryControls query={query} onQuery={setQuery} sort={sort} onSort={setSort} scope={scope} onScope={workspace ? setScope : undefined} deletable={deletable} />
      <p className="history-count muted-text" role="status">
        {countText({ shown: rows.length, matched: total, inScope: inScopeCount, total: history.length, scope, searching, pending, query })}
      </p>
      {rows.length > 0 && <HistoryList rows={rows} openId={running ? task?.id : undefined} busy={pending} onResumed={onDone} />}
    </div>
  );
}

/** What the list holds, in words: read by screen readers as it changes (role="status"), and the empty states. */
function countText(c: { shown: number; matched: number; inScope: number; total: number; scope: HistoryScope; searching: boolean; pending: boolean; query: string }): string {
  if (c.total === 0) return "No saved tasks yet.";
  const tasks = (n: number) => `${n.toLocaleString("en-US")} task${n === 1 ? "" : "s"}`;
  if (c.searching) {
    if (c.pending && c.shown === 0) return "Searching…";
    if (c.shown === 0) return `No task matches “${c.query.trim()}”.`;
    // The host sends the best few hundred: a short query may match thousands.
    if (c.matched > c.shown) return `The best ${c.shown} of ${tasks(c.matched)} that match “${c.query.trim()}”: type more to narrow.`;
    return `${tasks(c.shown)} ${c.shown === 1 ? "matches" : "match"} “${c.query.trim()}”.`;
  }
  if (c.scope === "all") return `${tasks(c.inScope)} in all workspaces.`;
  const others = c.total - c.inScope;
  const elsewhere = others > 0 ? ` ${tasks(others)} in other workspaces (All workspaces shows them).` : "";
  return c.inScope === 0 ? `No saved task of this workspace yet.${elsewhere}` : `${tasks(c.inScope)} of this workspace.${elsewhere}`;
}
