import { useState } from "react";
import { Icon } from "../components/Icon";
import { UsageStats } from "../components/UsageStats";
import { useExtensionState } from "../use-extension-state";
import { formatCost, formatTokens } from "../format";
import { ContextWindowBar } from "./ContextWindowBar";

/** The task's text (expandable), its token and cost totals (before the first request's usage, its estimate), and the context window gauge. */
export function TaskHeader({ onClose }: { onClose: () => void }) {
  const task = useExtensionState((state) => state.task);
  const totals = useExtensionState((state) => state.totals);
  const estimate = useExtensionState((state) => state.estimate);
  const contextTokens = useExtensionState((state) => state.contextTokens);
  const contextWindow = useExtensionState((state) => state.settings?.contextWindow ?? 0);
  const [expanded, setExpanded] = useState(false);
  if (!task) return null;
  return (
    <section className="task-header" aria-label="Task">
      <div className="task-title-row">
        <button
          type="button"
          className={`task-text${expanded ? " expanded" : ""}`}
          aria-expanded={expanded}
          title={expanded ? "Show less" : "Show the whole task"}
          onClick={() => setExpanded(!expanded)}
        >
          <Icon name={expanded ? "chevron-down" : "chevron-right"} />
          <span>{task.text}</span>
        </button>
        <button type="button" className="icon-button" aria-label="Close task" title="Close task" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <UsageStats totals={totals} />
      {estimate && (
        <div className="task-estimate">
          First request: about {formatCost(estimate.cost)} for ~{formatTokens(estimate.tokensIn)} tokens in, before its answer
        </div>
      )}
      <ContextWindowBar used={contextTokens} size={contextWindow} />
    </section>
  );
}
