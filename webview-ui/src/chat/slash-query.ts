/**
 * The `/` menu's logic, free of React. The syntax is the core's (src/core/slash/parse.ts): a
 * command counts only at the very start of the message, so the menu opens only while the caret is
 * in a first word that starts with `/`. It offers the host's commands whose name contains what is
 * typed (those that start with it first), in the host's order: built-ins, workflows, MCP prompts.
 */
import type { SlashCommandView } from "../../../src/shared/protocol";

/** What follows the leading `/` up to the caret; none when the caret is not in a leading command. */
export function slashQueryAt(text: string, caret: number): string | undefined {
  const match = /^\/(\S*)$/.exec(text.slice(0, caret));
  return match ? (match[1] ?? "") : undefined;
}

export function slashItems(query: string, commands: readonly SlashCommandView[]): SlashCommandView[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** The text with its leading `/query` replaced by `/name ` (the rest kept); where the caret goes. */
export function insertSlashCommand(text: string, query: string, command: SlashCommandView): { text: string; caret: number } {
  const rest = text.slice(1 + query.length).replace(/^ /, "");
  const inserted = `/${command.name} `;
  return { text: `${inserted}${rest}`, caret: inserted.length };
}
