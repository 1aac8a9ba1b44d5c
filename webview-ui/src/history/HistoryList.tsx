import { forwardRef, useCallback } from "react";
import { Virtuoso, type ItemProps, type ListProps } from "react-virtuoso";
import type { HistoryRow } from "./history-rows";
import { HistoryEntry } from "./HistoryEntry";

/** The list element: a named list, whose items say their place in the whole (only some are in the page at a time). */
const List = forwardRef<HTMLUListElement, ListProps<HTMLUListElement> & { context?: ListContext }>(function List({ context, ...props }, ref) {
  return <ul {...props} ref={ref} className="history-list" aria-label="Saved tasks" aria-busy={context?.busy} />;
});

function Item({ item: _row, context, ...props }: ItemProps<HistoryRow> & { context?: ListContext }) {
  return <li {...props} className="history-item" aria-setsize={context?.total} aria-posinset={props["data-index"] + 1} />;
}

interface ListContext {
  readonly total: number;
  /** A search's answer is on its way: the rows shown are the last query's. */
  readonly busy: boolean;
}

/**
 * The saved tasks, virtualized as the chat is (react-virtuoso): only the rows near the view are
 * in the page, so 5,000 tasks open as fast as 50 and scroll as smoothly.
 */
export function HistoryList({ rows, openId, busy, onResumed }: { rows: readonly HistoryRow[]; openId: string | undefined; busy: boolean; onResumed: () => void }) {
  const itemContent = useCallback(
    (_index: number, row: HistoryRow) => <HistoryEntry item={row.item} match={row.match} isOpen={row.item.id === openId} onResumed={onResumed} />,
    [openId, onResumed],
  );
  return (
    <Virtuoso<HistoryRow, ListContext>
      className="history-scroller"
      data={rows}
      context={{ total: rows.length, busy }}
      computeItemKey={(_index, row) => row.item.id}
      itemContent={itemContent}
      components={{ List, Item }}
      increaseViewportBy={{ top: 400, bottom: 400 }}
    />
  );
}
