import type { MenuItem } from "./mention-query";
import { PickerMenu } from "./PickerMenu";

interface MentionMenuProps {
  items: readonly MenuItem[];
  selected: number;
  onPick(item: MenuItem): void;
  onHover(index: number): void;
}

const ICONS: Record<MenuItem["kind"], string> = { fixed: "symbol-event", file: "file", folder: "folder", commit: "git-commit", url: "link" };

/** The @ menu: the fixed mentions, a typed commit or URL, the workspace's files and folders. */
export function MentionMenu({ items, selected, onPick, onHover }: MentionMenuProps) {
  const rows = items.map((item) => ({ key: `${item.kind}:${item.insert}`, icon: ICONS[item.kind], label: item.label, ...(item.detail ? { detail: item.detail } : {}) }));
  return (
    <PickerMenu
      label="Mentions"
      rows={rows}
      selected={selected}
      onPick={(i) => items[i] && onPick(items[i])}
      onHover={onHover}
      hint="Paste a URL after @ to fetch a page, or type a commit hash (7–40 hex digits)."
    />
  );
}
