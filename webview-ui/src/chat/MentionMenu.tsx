import { Icon } from "../components/Icon";
import type { MenuItem } from "./mention-query";

interface MentionMenuProps {
  items: readonly MenuItem[];
  selected: number;
  onPick(item: MenuItem): void;
  onHover(index: number): void;
}

const ICONS: Record<MenuItem["kind"], string> = { fixed: "symbol-event", file: "file", folder: "folder", commit: "git-commit", url: "link" };

/**
 * The list the @-menu shows above the input box. The textarea keeps the focus (a click picks on
 * mouse-down), so typing goes on filtering; the hints say what else may follow an `@`.
 */
export function MentionMenu({ items, selected, onPick, onHover }: MentionMenuProps) {
  return (
    <div className="mention-menu">
      <ul role="listbox" aria-label="Mentions">
        {items.map((item, i) => (
          <li
            key={`${item.kind}:${item.insert}`}
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
            <span className="mention-label">{item.label}</span>
            {item.detail && <span className="mention-detail">{item.detail}</span>}
          </li>
        ))}
      </ul>
      <div className="mention-hint">Paste a URL after @ to fetch a page, or type a commit hash (7–40 hex digits).</div>
    </div>
  );
}
