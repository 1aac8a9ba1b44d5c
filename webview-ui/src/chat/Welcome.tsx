import { useMemo } from "react";
import { formatCost, formatDate } from "../format";
import { recentTasks, shownStatus, STATUS_LABELS } from "../history/history-status";
import { usePanel } from "../state/panel-context";
import { useExtensionState, usePost } from "../use-extension-state";

/** Shown instead of the task header when there is no task: what to do, and this workspace's recent tasks. */
export function Welcome() {
  return (
    <section className="welcome">
      <h2>What should Tandem do?</h2>
      <p>
        Describe a task below. Tandem asks before it edits a file or runs a command, unless you let it
        approve those by itself.
      </p>
      <RecentTasks />
    </section>
  );
}

/** Shown instead of the start screen while the task a window reload interrupted is reopened. */
export function Restoring() {
  return (
    <section className="welcome restoring" role="status" aria-busy="true">
      <h2>Restoring the interrupted task…</h2>
      <p>The window reloaded while a task was running. Its chat comes back here in a moment.</p>
    </section>
  );
}

/** The three most recent tasks of this workspace, each opened with a click, and the way to all of them (as Cline's start screen). */
function RecentTasks() {
  const post = usePost();
  const { store } = usePanel();
  const history = useExtensionState((state) => state.history);
  const workspace = useExtensionState((state) => state.workspace);
  const recent = useMemo(() => recentTasks(history, workspace), [history, workspace]);
  if (recent.length === 0) return null;
  return (
    <nav className="recent-tasks" aria-labelledby="recent-tasks-title">
      <h3 id="recent-tasks-title">Recent tasks</h3>
      <ul>
        {recent.map((item) => {
          const status = shownStatus(item, false);
          return (
            <li key={item.id}>
              <button type="button" className="recent-task" onClick={() => post({ type: "resumeTask", id: item.id })}>
                <span className="recent-task-text">{item.text}</span>
                <span className="recent-task-meta">
                  {[formatDate(item.startedAt), status && STATUS_LABELS[status], formatCost(item.usage.cost)].filter(Boolean).join(" · ")}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" className="link-button" onClick={() => store.setView("history")}>
        View all
      </button>
    </nav>
  );
}
