/**
 * A question's options are shown once. While the question is open they are the answer buttons;
 * once it is answered, a list under the text keeps them. Models often write the same options into
 * their text as a list as well: such a list (each item exactly an option, outside code blocks) is
 * taken out of the text shown, with a bare "Options:" line that leads it. An item that says more
 * than its option ("Use a cache: faster, more code") is the model's explanation and stays.
 */

const LIST_ITEM = /^\s*(?:[-*+]|\d{1,2}[.)]|\(?[A-Za-z][.)])\s+(.*)$/;
const OPTIONS_LEAD = /^\W*(?:options?|choices?|you (?:can|could) (?:pick|choose)(?: one)?)\W*$/i;
const FENCE = /^\s*(```|~~~)/;

/** An option or a list item's text, compared loosely: no markdown emphasis, case, spacing or end punctuation. */
function comparable(text: string): string {
  return text
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.;:,!]+$/, "")
    .toLowerCase();
}

/** `text` without the list that repeats `options`; unchanged when there is none. */
export function withoutOptionList(text: string, options: readonly string[]): string {
  if (options.length === 0 || text === "") return text;
  const wanted = new Set(options.map(comparable));
  const lines = text.split("\n");
  // Each line's option (a list item that is exactly one), outside code blocks.
  let inFence = false;
  const offered = lines.map((line) => {
    if (FENCE.test(line)) inFence = !inFence;
    const item = inFence ? undefined : LIST_ITEM.exec(line)?.[1];
    return item !== undefined && wanted.has(comparable(item)) ? comparable(item) : undefined;
  });
  const drop = new Set<number>();
  let run: number[] = [];
  const endRun = () => {
    // One repeated item alone is not a list of the options, unless there is just one option.
    const first = run[0];
    if (first !== undefined && new Set(run.map((i) => offered[i])).size >= Math.min(2, wanted.size)) {
      for (const i of run) drop.add(i);
      const lead = previousNonBlank(lines, first);
      if (lead !== undefined && OPTIONS_LEAD.test(lines[lead] ?? "")) drop.add(lead);
    }
    run = [];
  };
  lines.forEach((line, i) => {
    if (offered[i] !== undefined) run.push(i);
    // Blank lines may part a list's items; anything else ends it.
    else if (line.trim() !== "" || FENCE.test(line)) endRun();
  });
  endRun();
  if (drop.size === 0) return text;
  return lines
    .filter((_, i) => !drop.has(i))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function previousNonBlank(lines: readonly string[], from: number): number | undefined {
  for (let i = from - 1; i >= 0; i--) if ((lines[i] ?? "").trim() !== "") return i;
  return undefined;
}
