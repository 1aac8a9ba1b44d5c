/**
 * History's search: each change of the query goes to the host (which searches every task's text
 * and conversation from memory, in its own process) and the answer comes back as matches only. Until
 * the answer to the current query arrives, the last matches stay on screen (`pending`).
 */
import { useEffect, useRef, useState } from "react";
import type { HistoryMatch, HistoryScope } from "../../../src/shared/protocol";
import { useExtensionState, usePost } from "../use-extension-state";

/** Request ids of this page, growing (the host answers the query that came last). */
let nextRequestId = 1;

export interface HistorySearchState {
  /** The matches to show; undefined without a query. */
  readonly matches: readonly HistoryMatch[] | undefined;
  /** The current query's answer has not arrived yet. */
  readonly pending: boolean;
  /** How many tasks match in all (the host sends the best few hundred). */
  readonly total: number;
}

/** Searches the tasks of `scope` (the host holds them; it answers with matches only). */
export function useHistorySearch(query: string, scope: HistoryScope): HistorySearchState {
  const post = usePost();
  const results = useExtensionState((state) => state.historyResults);
  const [sent, setSent] = useState<{ id: number; query: string } | undefined>(undefined);
  const shown = useRef<{ matches: readonly HistoryMatch[]; total: number } | undefined>(undefined);
  const active = query.trim() !== "";

  // As History opens: the host loads what searching needs (every task's digest, once), so the
  // first letter typed is answered as fast as the next.
  useEffect(() => {
    post({ type: "searchHistory", query: "", requestId: nextRequestId++, scope: "all" });
  }, [post]);

  useEffect(() => {
    if (!active) return setSent(undefined);
    const id = nextRequestId++;
    setSent({ id, query });
    post({ type: "searchHistory", query, requestId: id, scope });
  }, [active, query, scope, post]);

  if (!active) {
    shown.current = undefined;
    return { matches: undefined, pending: false, total: 0 };
  }
  const answered = results !== undefined && sent !== undefined && results.requestId === sent.id;
  if (answered) shown.current = { matches: results.matches, total: results.total };
  return { matches: shown.current?.matches ?? [], pending: !answered, total: shown.current?.total ?? 0 };
}
