import type { UsageTotals } from "../../../src/shared/usage";
import { formatCost, formatTokens } from "../format";

/**
 * A task's token and cost totals, worded the same wherever they are shown (the task header, a
 * History entry), from the same sums (shared/usage.ts).
 */
export function UsageStats({ totals }: { totals: UsageTotals }) {
  return (
    <div className="task-stats">
      <span title="Tokens in / out">
        Tokens ↑ {formatTokens(totals.tokensIn)} ↓ {formatTokens(totals.tokensOut)}
      </span>
      <span title="Cache writes / reads">
        Cache +{formatTokens(totals.cacheWrites)} → {formatTokens(totals.cacheReads)}
      </span>
      <span className="cost" title="Total cost">{formatCost(totals.cost)}</span>
    </div>
  );
}
