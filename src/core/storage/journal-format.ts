/**
 * The journal's format: one JSON object per line, each a change to a list. Replaying the lines
 * in order rebuilds the list. A line counts only once its newline is on disk, so a line a crash
 * cut short is simply not there yet; any other unreadable line is damage, reported, never guessed.
 */

/**
 * One change: the whole list, one item appended, one item replaced by key, items removed by key,
 * or one item replaced by its position (`replace`: a plain list, such as the API history, whose
 * items have no key; added after the first four, so older files simply never contain it).
 */
export type JournalOp<T> =
  | { readonly reset: readonly T[] }
  | { readonly push: T }
  | { readonly set: T }
  | { readonly drop: readonly number[] }
  | { readonly replace: { readonly index: number; readonly item: T } };

export function encodeOp<T>(op: JournalOp<T>): string {
  return `${JSON.stringify(op)}\n`;
}

/** A reset line, with the bytes each item takes in it (for the journal's accounting). */
export function encodeReset<T>(items: readonly T[]): { line: string; itemBytes: number[] } {
  const parts = items.map((item) => JSON.stringify(item));
  // The same text JSON.stringify({ reset: items }) gives, for items that are objects.
  const line = `{"reset":[${parts.join(",")}]}\n`;
  return { line, itemBytes: parts.map((part) => Buffer.byteLength(part) + 1) };
}

/** The complete lines of a journal's text: everything up to its last newline. */
export function completeLines(text: string): string[] {
  const end = text.lastIndexOf("\n");
  return end < 0 ? [] : text.slice(0, end).split("\n");
}

export function parseOps<T>(text: string, file: string): JournalOp<T>[] {
  return completeLines(text).map((line, i) => {
    let op: unknown;
    try {
      op = JSON.parse(line);
    } catch (error) {
      throw new Error(`Task history file ${file} is damaged at line ${i + 1}: ${(error as Error).message}`);
    }
    if (!isOp(op)) throw new Error(`Task history file ${file} has an entry Tandem does not know at line ${i + 1} (written by a newer version?)`);
    return op as JournalOp<T>;
  });
}

/**
 * Applies the changes in order to `base` (the list as it was before the journal began). `keyOf`
 * names an item for `set` and `drop`; a list without it only takes `reset` and `push`.
 */
export function replay<T>(base: readonly T[], ops: readonly JournalOp<T>[], keyOf?: (item: T) => number): T[] {
  let items = [...base];
  const index = new Map<number, number>();
  const reindex = () => {
    index.clear();
    if (keyOf) items.forEach((item, i) => index.set(keyOf(item), i));
  };
  reindex();
  for (const op of ops) {
    if ("reset" in op) {
      items = [...op.reset];
      reindex();
    } else if ("replace" in op) {
      const { index: at, item } = op.replace;
      // The writer only replaces items it has: anything else is damage, not something to guess about.
      if (at >= items.length) throw new Error(`The history replaces item ${at}, but it holds only ${items.length} items.`);
      items[at] = item;
      if (keyOf) reindex();
    } else if ("push" in op) {
      items.push(op.push);
      if (keyOf) index.set(keyOf(op.push), items.length - 1);
    } else if (!keyOf) {
      throw new Error("This history is a plain list: it cannot replace or remove items by key.");
    } else if ("drop" in op) {
      const doomed = new Set(op.drop);
      items = items.filter((item) => !doomed.has(keyOf(item)));
      reindex();
    } else {
      // A replacement of an item nobody added cannot come from the writer; keep it rather than lose it.
      const at = index.get(keyOf(op.set));
      if (at !== undefined) items[at] = op.set;
      else index.set(keyOf(op.set), items.push(op.set) - 1);
    }
  }
  return items;
}

function isOp(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const [key] = keys;
  const body = (value as Record<string, unknown>)[key as string];
  if (key === "reset") return Array.isArray(body);
  if (key === "drop") return Array.isArray(body) && body.every((k) => typeof k === "number");
  if (key === "replace") return isReplacement(body);
  return (key === "push" || key === "set") && typeof body === "object" && body !== null;
}

function isReplacement(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const { index, item } = body as { index?: unknown; item?: unknown };
  return Number.isInteger(index) && (index as number) >= 0 && typeof item === "object" && item !== null;
}
