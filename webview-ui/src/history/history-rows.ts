/**
 * The rows History shows: the scope's tasks in the chosen order, or, while a search runs, the
 * host's matches among them, by how well they match and then that order (shared/history-view.ts).
 */
import { compareHistory, inScope, orderMatches, type HistorySort } from "../../../src/shared/history-view";
import type { HistoryItem, HistoryMatch, HistoryScope } from "../../../src/shared/protocol";

export interface HistoryRow {
  readonly item: HistoryItem;
  /** Where a search matched it (none without a search). */
  readonly match?: HistoryMatch;
}

export interface RowsInput {
  readonly history: readonly HistoryItem[];
  readonly workspace: string;
  readonly scope: HistoryScope;
  readonly sort: HistorySort;
  /** The host's answer to the current search; undefined without one. */
  readonly matches: readonly HistoryMatch[] | undefined;
}

export function historyRows({ history, workspace, scope, sort, matches }: RowsInput): HistoryRow[] {
  const scoped = history.filter((item) => inScope(item, scope, workspace));
  if (!matches) return scoped.sort(compareHistory(sort)).map((item) => ({ item }));
  return orderMatches(matches, new Map(scoped.map((item) => [item.id, item])), sort);
}

/** The scope to show: with no workspace open there is no "this workspace", only all. */
export function shownScope(chosen: HistoryScope, workspace: string): HistoryScope {
  return workspace ? chosen : "all";
}
