import { Icon } from "../components/Icon";

export interface PickerRow {
  readonly key: string;
  readonly icon: string;
  readonly label: string;
  readonly detail?: string;
}

interface PickerMenuProps {
  /** The list's accessible name ("Mentions", "Slash commands"). */
  label: string;
  rows: readonly PickerRow[];
  selected: number;
  onPick(index: number): void;
  onHover(index: number): void;
  /** A line under the rows, saying what else may be typed. */
  hint?: string;
}

/**
 * The list a typeahead (@ or /) shows above the input box. The textarea keeps the focus (a click
 * picks on mouse-down), so typing goes on filtering.
 */
export function PickerMenu({ label, rows, selected, onPick, onHover, hint }: PickerMenuProps) {
  return (
    <div className="mention-menu">
      <ul role="listbox" aria-label={label}>
        {rows.map((row, i) => (
          <li
            key={row.key}
            role="option"
            aria-selected={i === selected}
            className={i === selected ? "mention-item selected" : "mention-item"}
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(i);
            }}
            onMouseEnter={() => onHover(i)}
          >
            <Icon name={row.icon} />
            <span className="mention-label">{row.label}</span>
            {row.detail && <span className="mention-detail">{row.detail}</span>}
          </li>
        ))}
      </ul>
      {hint && <div className="mention-hint">{hint}</div>}
    </div>
  );
}
