/**
 * Reads the model's `task_progress` text (and checks the person's edited list) into checklist
 * items. Lenient in form: `- [ ]`, `* [x]`, `1. [X]`, a bare `[ ]`, a plain bullet (an open item),
 * in-progress marks (`[-]`, `[~]`, `[/]`, open), code fences, blank lines, and an indented line
 * continuing the item above. Strict in meaning: a line that is none of these is an error naming
 * it, and then nothing is taken, so the list the model last wrote is never half-replaced.
 */
import type { FocusChainItem } from "../../../shared/focus-chain";

export const FOCUS_CHAIN_MAX_ITEMS = 50;
export const FOCUS_CHAIN_MAX_ITEM_CHARS = 300;

export type ChecklistReading = { readonly items: FocusChainItem[] } | { readonly error: string };

const BULLET = /^(?:[-*+]|\d{1,3}[.)])(?=\s|\[)\s*/;
const BOX = /^\[([ xX✓✔~/-]?)\]\s*/;
const DONE_MARKS = new Set(["x", "X", "✓", "✔"]);

export function parseChecklist(text: string): ChecklistReading {
  const items: { text: string; done: boolean }[] = [];
  const bad: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("```")) continue;
    const item = readItem(line);
    if (item) {
      items.push(item);
      continue;
    }
    const previous = items.at(-1);
    // An indented line goes on with the item above it (a long item wrapped by the model).
    if (previous && /^\s/.test(raw)) previous.text = `${previous.text} ${line}`;
    else bad.push(line);
  }
  if (bad.length > 0) {
    const shown = bad.slice(0, 3).map((line) => `"${clip(line)}"`).join(", ");
    return { error: `${bad.length === 1 ? "this line is" : `${bad.length} lines are`} not a checklist item: ${shown}${bad.length > 3 ? ", …" : ""}. Write each item as "- [ ] step" (open) or "- [x] step" (done).` };
  }
  return checkItems(items);
}

/** The limits every list meets, whoever wrote it. An empty list is allowed: it clears the checklist. */
export function checkItems(items: readonly FocusChainItem[]): ChecklistReading {
  if (items.length > FOCUS_CHAIN_MAX_ITEMS) return { error: `it has ${items.length} items; keep it to at most ${FOCUS_CHAIN_MAX_ITEMS} (merge small steps).` };
  const empty = items.findIndex((item) => item.text.trim() === "");
  if (empty >= 0) return { error: `item ${empty + 1} has no text.` };
  const long = items.findIndex((item) => item.text.length > FOCUS_CHAIN_MAX_ITEM_CHARS);
  if (long >= 0) return { error: `item ${long + 1} is ${items[long]?.text.length} characters long; keep each item to one short line (at most ${FOCUS_CHAIN_MAX_ITEM_CHARS}).` };
  return { items: items.map((item) => ({ text: item.text.trim(), done: item.done })) };
}

/**
 * The person's edit as the panel posted it: checked as data (it crossed a boundary), then by the
 * same limits. A line break in an item becomes a space, so the Markdown form stays one item a line.
 */
export function readEditedItems(value: unknown): ChecklistReading {
  if (!Array.isArray(value)) return { error: "the checklist must be a list of items." };
  const items: FocusChainItem[] = [];
  for (const [i, item] of value.entries()) {
    const { text, done } = (item ?? {}) as { text?: unknown; done?: unknown };
    if (typeof text !== "string" || typeof done !== "boolean") return { error: `item ${i + 1} must have a text and a done flag.` };
    items.push({ text: text.replace(/\s*[\r\n]+\s*/g, " "), done });
  }
  return checkItems(items);
}

/** An item line: a bullet or number, a box, or both, then the text; undefined for any other line. */
function readItem(line: string): { text: string; done: boolean } | undefined {
  const bullet = BULLET.exec(line);
  let rest = bullet ? line.slice(bullet[0].length) : line;
  const box = BOX.exec(rest);
  if (!bullet && !box) return undefined;
  if (box) rest = rest.slice(box[0].length);
  return { text: rest.trim(), done: box ? DONE_MARKS.has(box[1] ?? "") : false };
}

function clip(line: string): string {
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
