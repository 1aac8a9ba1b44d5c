/**
 * The `/` menu's state for the input box: it opens while the caret is in a leading `/…`, asks the
 * host for the commands known now once each time it opens (workflow files may have changed), and
 * filters them locally as the query grows. The keys are the @ menu's (menu-keys.ts). Picking puts
 * `/name ` at the start of the text and the caret after it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import type { SlashCommandView } from "../../../src/shared/protocol";
import { useExtensionState, usePost } from "../use-extension-state";
import { menuKeyOf } from "./menu-keys";
import { insertSlashCommand, slashItems, slashQueryAt } from "./slash-query";

export interface SlashMenu {
  readonly items: readonly SlashCommandView[];
  readonly selected: number;
  readonly open: boolean;
  pick(item: SlashCommandView): void;
  select(index: number): void;
  /** Call with the textarea's key events first: true when the menu took the key. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  onCaret(position: number): void;
}

export function useSlashMenu(textarea: RefObject<HTMLTextAreaElement | null>, draft: string, onDraftChange: (text: string) => void): SlashMenu {
  const post = usePost();
  const commands = useExtensionState((state) => state.slashCommands);
  const [caret, setCaret] = useState(draft.length);
  const [selected, setSelected] = useState(0);
  const [closed, setClosed] = useState(false);
  const pendingCaret = useRef<number | undefined>(undefined);

  const typed = slashQueryAt(draft, Math.min(caret, draft.length));
  const query = closed ? undefined : typed;
  const opened = query !== undefined;

  useEffect(() => {
    if (opened) post({ type: "slashCommands" });
  }, [opened, post]);
  useEffect(() => setSelected(0), [query]);
  // Escape closes it until the leading command is left (deleted or finished with a space).
  useEffect(() => {
    if (typed === undefined && closed) setClosed(false);
  }, [typed, closed]);
  useLayoutEffect(() => {
    if (pendingCaret.current === undefined || !textarea.current) return;
    textarea.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = undefined;
  }, [draft, textarea]);

  const items = query === undefined ? [] : slashItems(query, commands ?? []);
  const index = Math.min(selected, Math.max(0, items.length - 1));

  const pick = (item: SlashCommandView) => {
    if (query === undefined) return;
    const next = insertSlashCommand(draft, query, item);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    onDraftChange(next.text);
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (query === undefined) return false;
    const key = menuKeyOf(event, index, items.length);
    if (key?.kind === "close") setClosed(true);
    else if (key?.kind === "move") setSelected(key.index);
    else if (key?.kind === "pick" && items[index]) pick(items[index]);
    return key !== undefined;
  };

  return { items, selected: index, open: items.length > 0, pick, select: setSelected, onKeyDown, onCaret: setCaret };
}
