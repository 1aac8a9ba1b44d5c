/**
 * The @-menu's state for the input box: it opens while the caret is in an `@…`, asks the host for
 * matching files and folders as the query changes (one request per change; the host answers
 * from its kept index), and handles the keys (menu-keys.ts, shared with the `/` menu): up and down
 * move, Enter or Tab picks, Escape closes it until the next `@`. Picking puts the mention in the
 * text and the caret after it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import type { WorkspaceEntryView } from "../../../src/shared/protocol";
import { useExtensionState, usePost } from "../use-extension-state";
import { menuKeyOf } from "./menu-keys";
import { insertMention, mentionQueryAt, menuItems, searchTextOf, type MenuItem } from "./mention-query";

export interface MentionMenu {
  readonly items: readonly MenuItem[];
  readonly selected: number;
  /** Open with something to offer. */
  readonly open: boolean;
  pick(item: MenuItem): void;
  select(index: number): void;
  /** Call with the textarea's key events first: true when the menu took the key. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Call when the caret may have moved (typing, clicking, selecting). */
  onCaret(position: number): void;
}

export function useMentionMenu(textarea: RefObject<HTMLTextAreaElement | null>, draft: string, onDraftChange: (text: string) => void): MentionMenu {
  const post = usePost();
  const answer = useExtensionState((state) => state.workspaceResults);
  const [caret, setCaret] = useState(draft.length);
  const [selected, setSelected] = useState(0);
  const [closedAt, setClosedAt] = useState<number | undefined>(undefined);
  const requestId = useRef(0);
  const shownFiles = useRef<readonly WorkspaceEntryView[]>([]);
  const pendingCaret = useRef<number | undefined>(undefined);

  const mention = mentionQueryAt(draft, Math.min(caret, draft.length));
  const active = mention !== undefined && mention.start !== closedAt;
  const query = active ? mention.query : undefined;

  useEffect(() => {
    if (query === undefined) return;
    setSelected(0);
    post({ type: "searchWorkspace", query: searchTextOf(query), requestId: ++requestId.current });
  }, [query, post]);
  useEffect(() => {
    if (mention === undefined && closedAt !== undefined) setClosedAt(undefined);
  }, [mention, closedAt]);
  // The caret goes after a picked mention once the new text is in the box.
  useLayoutEffect(() => {
    if (pendingCaret.current === undefined || !textarea.current) return;
    textarea.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = undefined;
  }, [draft, textarea]);

  // The answer to the latest request; until it comes, the previous one stays (no flicker while typing).
  if (answer && answer.requestId === requestId.current) shownFiles.current = answer.results;
  const items = query === undefined ? [] : menuItems(query, shownFiles.current);
  const open = items.length > 0;
  const index = Math.min(selected, Math.max(0, items.length - 1));

  const pick = (item: MenuItem) => {
    if (!mention) return;
    const next = insertMention(draft, mention, item);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    onDraftChange(next.text);
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!active) return false;
    const key = menuKeyOf(event, index, items.length);
    if (key?.kind === "close") setClosedAt(mention.start);
    else if (key?.kind === "move") setSelected(key.index);
    else if (key?.kind === "pick" && items[index]) pick(items[index]);
    return key !== undefined;
  };

  return { items, selected: index, open, pick, select: setSelected, onKeyDown, onCaret: setCaret };
}
