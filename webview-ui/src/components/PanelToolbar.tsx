import type { PanelView } from "../../../src/shared/protocol";
import { Icon } from "./Icon";

const VIEWS: { view: PanelView; icon: string; label: string }[] = [
  { view: "chat", icon: "comment-discussion", label: "Chat" },
  { view: "history", icon: "history", label: "History" },
  { view: "settings", icon: "gear", label: "Settings" },
];

/** Switches between the chat, history and settings views. */
export function PanelToolbar({ view, onSelect }: { view: PanelView; onSelect: (view: PanelView) => void }) {
  return (
    <nav className="panel-toolbar" aria-label="Views">
      {VIEWS.map((item) => (
        <button
          key={item.view}
          type="button"
          className={`icon-button${item.view === view ? " selected" : ""}`}
          aria-label={item.label}
          aria-pressed={item.view === view}
          title={item.label}
          onClick={() => onSelect(item.view)}
        >
          <Icon name={item.icon} />
        </button>
      ))}
    </nav>
  );
}
