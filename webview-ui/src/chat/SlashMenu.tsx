import type { SlashCommandView } from "../../../src/shared/protocol";
import { PickerMenu } from "./PickerMenu";

interface SlashMenuProps {
  items: readonly SlashCommandView[];
  selected: number;
  onPick(item: SlashCommandView): void;
  onHover(index: number): void;
}

const ICONS: Record<SlashCommandView["kind"], string> = { builtin: "symbol-event", workflow: "book", mcp: "server" };

/** The / menu: the built-in commands, then the workflows, then the MCP servers' prompts. */
export function SlashMenu({ items, selected, onPick, onHover }: SlashMenuProps) {
  const rows = items.map((item) => ({ key: `${item.kind}:${item.name}`, icon: ICONS[item.kind], label: `/${item.name}`, detail: item.description }));
  return <PickerMenu label="Slash commands" rows={rows} selected={selected} onPick={(i) => items[i] && onPick(items[i])} onHover={onHover} />;
}
