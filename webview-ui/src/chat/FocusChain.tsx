import { useState, type KeyboardEvent } from "react";
import { focusChainProgress, type FocusChainItem } from "../../../src/shared/focus-chain";
import { Icon } from "../components/Icon";
import { useExtensionState, usePost } from "../use-extension-state";

/**
 * The task's checklist as it stands (the newest `task_progress` row, kept by the store), with its
 * progress. The person ticks, unticks, edits, adds and removes items; each change posts the whole
 * new list to the host, which saves it as a row and tells the model with its next request. The
 * list shown changes when that row arrives, so it is always the host's.
 */
export function FocusChain() {
  const chain = useExtensionState((state) => state.focusChain);
  const enabled = useExtensionState((state) => state.settings?.agent.focusChain ?? true);
  const post = usePost();
  const [expanded, setExpanded] = useState(true);
  const [editing, setEditing] = useState<{ index: number; text: string } | undefined>(undefined);
  const [adding, setAdding] = useState("");
  if (!chain || !enabled) return null;
  const items = chain.items;
  const save = (next: readonly FocusChainItem[]) => post({ type: "editFocusChain", items: next });

  const commitEdit = () => {
    if (!editing) return;
    const text = editing.text.trim();
    const item = items[editing.index];
    setEditing(undefined);
    if (item && text && text !== item.text) save(items.with(editing.index, { ...item, text }));
  };
  const onEditKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") commitEdit();
    if (event.key === "Escape") setEditing(undefined);
  };
  const add = () => {
    const text = adding.trim();
    if (!text) return;
    setAdding("");
    save([...items, { text, done: false }]);
  };

  return (
    <section className="focus-chain" aria-label="Checklist">
      <button type="button" className="focus-chain-toggle" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        <Icon name={expanded ? "chevron-down" : "chevron-right"} />
        <span>Checklist</span>
        <span className="focus-chain-progress" aria-label="Checklist progress">
          {focusChainProgress(items)}
        </span>
      </button>
      {expanded && (
        <>
          <ul className="focus-chain-items">
            {items.map((item, index) => (
              <li key={index} className={item.done ? "done" : undefined}>
                <input type="checkbox" checked={item.done} aria-label={`Done: ${item.text}`} onChange={() => save(items.with(index, { ...item, done: !item.done }))} />
                {editing?.index === index ? (
                  <input
                    className="focus-chain-edit"
                    aria-label="Edit item"
                    autoFocus
                    value={editing.text}
                    onChange={(event) => setEditing({ index, text: event.target.value })}
                    onKeyDown={onEditKey}
                    onBlur={commitEdit}
                  />
                ) : (
                  <button type="button" className="focus-chain-text" title="Edit this item" onClick={() => setEditing({ index, text: item.text })}>
                    {item.text}
                  </button>
                )}
                <button type="button" className="icon-button" aria-label={`Remove: ${item.text}`} title="Remove this item" onClick={() => save(items.filter((_, i) => i !== index))}>
                  <Icon name="close" />
                </button>
              </li>
            ))}
          </ul>
          <input
            className="focus-chain-add"
            aria-label="Add an item"
            placeholder="Add an item… (Enter)"
            value={adding}
            onChange={(event) => setAdding(event.target.value)}
            onKeyDown={(event) => event.key === "Enter" && add()}
          />
        </>
      )}
    </section>
  );
}
