/**
 * What History shows of the saved tasks, decided once for the panel, the host and the CLI: which
 * workspace's tasks (the scope), in which order (the sort), which "Delete all" removes, and how search
 * matches are ordered. Plain functions over `HistoryItem`, no runtime imports.
 */
import type { HistoryItem, HistoryMatch, HistoryScope } from "./protocol";
import type { UsageTotals } from "./usage";

export const HISTORY_SORTS = ["newest", "oldest", "cost", "tokens"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

export const HISTORY_SORT_LABELS: Record<HistorySort, string> = {
  newest: "Newest",
  oldest: "Oldest",
  cost: "Most expensive",
  tokens: "Most tokens",
};

export function isHistorySort(value: unknown): value is HistorySort {
  return typeof value === "string" && (HISTORY_SORTS as readonly string[]).includes(value);
}

/**
 * Whether `item` is shown in `scope` for the workspace `root`. A task from an index that did not
 * record its workspace is not known to be of this one: it shows under all workspaces only, so a
 * per-workspace list never shows another project's task.
 */
export function inScope(item: HistoryItem, scope: HistoryScope, root: string): boolean {
  return scope === "all" || (root !== "" && item.workspace === root);
}

/** Every token a task's requests processed: fresh input, output, cache writes and reads. */
export function totalTokens(usage: UsageTotals): number {
  return usage.tokensIn + usage.tokensOut + usage.cacheWrites + usage.cacheReads;
}

const COMPARATORS: Record<HistorySort, (a: HistoryItem, b: HistoryItem) => number> = {
  newest: (a, b) => b.startedAt - a.startedAt,
  oldest: (a, b) => a.startedAt - b.startedAt,
  // Ties (many tasks cost nothing yet) fall back to the newest first.
  cost: (a, b) => b.usage.cost - a.usage.cost || b.startedAt - a.startedAt,
  tokens: (a, b) => totalTokens(b.usage) - totalTokens(a.usage) || b.startedAt - a.startedAt,
};

export function compareHistory(sort: HistorySort): (a: HistoryItem, b: HistoryItem) => number {
  return COMPARATORS[sort];
}

/**
 * The ids "Delete all" removes: every task in the scope but the favourites and the open one (the
 * task the chat shows, running or not).
 */
export function tasksToDelete(items: readonly HistoryItem[], scope: HistoryScope, root: string, openId: string | undefined): string[] {
  return items.filter((item) => inScope(item, scope, root) && !item.favorite && item.id !== openId).map((item) => item.id);
}

/**
 * Matches in the order shown: by rank, then by the sort the person chose among equally good
 * matches. Ids no longer listed (deleted meanwhile) are left out.
 */
export function orderMatches(matches: readonly HistoryMatch[], byId: ReadonlyMap<string, HistoryItem>, sort: HistorySort): { item: HistoryItem; match: HistoryMatch }[] {
  const compare = compareHistory(sort);
  const found: { item: HistoryItem; match: HistoryMatch }[] = [];
  for (const match of matches) {
    const item = byId.get(match.id);
    if (item) found.push({ item, match });
  }
  return found.sort((a, b) => a.match.rank - b.match.rank || compare(a.item, b.item));
}
