import { useEffect, useRef } from "react";
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
 * picks on mouse-down), so typing goes on filtering. Each row's name is on its own line, whole
 * (wrapped, never cut: a narrow side bar must still tell `/newtask` from `/newrule`), with its
 * description under it.
 */
export function PickerMenu({ label, rows, selected, onPick, onHover, hint }: PickerMenuProps) {
  const selectedRow = useRef<HTMLLIElement>(null);
  // Rows of two lines fill the menu sooner: the one the arrow keys reach stays in sight.
  // A block body: Chromium's scrollIntoView now returns a promise, which React would take for the effect's cleanup.
  useEffect(() => {
    selectedRow.current?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);
  return (
    <div className="mention-menu">
      <ul role="listbox" aria-label={label}>
        {rows.map((row, i) => (
          <li
            key={row.key}
            ref={i === selected ? selectedRow : undefined}
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
            <span className="mention-text">
              <span className="mention-label">{row.label}</span>
              {row.detail && <span className="mention-detail">{row.detail}</span>}
            </span>
          </li>
        ))}
      </ul>
      {hint && <div className="mention-hint">{hint}</div>}
    </div>
  );
}
