import type { SlashCommandView } from "../../../src/shared/protocol";
import { Icon } from "../components/Icon";

interface SlashMenuProps {
  items: readonly SlashCommandView[];
  selected: number;
  onPick(item: SlashCommandView): void;
  onHover(index: number): void;
}

const ICONS: Record<SlashCommandView["kind"], string> = { builtin: "symbol-event", workflow: "book", mcp: "server" };

/**
 * The list the `/` menu shows above the input box, in the @ menu's look. The textarea keeps the
 * focus (a click picks on mouse-down), so typing goes on filtering.
 */
export function SlashMenu({ items, selected, onPick, onHover }: SlashMenuProps) {
  return (
    <div className="mention-menu">
      <ul role="listbox" aria-label="Slash commands">
        {items.map((item, i) => (
          <li
            key={`${item.kind}:${item.name}`}
            role="option"
            aria-selected={i === selected}
            className={i === selected ? "mention-item selected" : "mention-item"}
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(item);
            }}
            onMouseEnter={() => onHover(i)}
          >
            <Icon name={ICONS[item.kind]} />
            <span className="mention-label">/{item.name}</span>
            <span className="mention-detail">{item.description}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
