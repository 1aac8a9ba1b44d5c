/**
 * After a loose match: models often drop or add a level of indentation in SEARCH and REPLACE
 * alike. When every matched line of the file is indented by the same extra (or missing) prefix
 * relative to SEARCH, REPLACE gets the same shift. It is left exactly as given when the relation
 * is not uniform, or when REPLACE does not start at SEARCH's indentation (then it was probably
 * written in the file's own frame already): a wrong guess would corrupt it.
 */

type Shift = { readonly add: string } | { readonly remove: string };

const leading = (line: string) => /^\s*/.exec(line)![0];

/** `fileLines` are the file's lines at the match, aligned with `search`. */
export function matchIndentation(search: readonly string[], fileLines: readonly string[], replace: readonly string[]): readonly string[] {
  const shift = uniformShift(search, fileLines);
  if (shift === undefined || leading(firstText(replace)) !== leading(firstText(search))) return replace;
  if ("add" in shift) return replace.map((line) => (line.trim() === "" ? line : shift.add + line));
  if (!replace.every((line) => line.trim() === "" || line.startsWith(shift.remove))) return replace;
  return replace.map((line) => (line.trim() === "" ? line : line.slice(shift.remove.length)));
}

function firstText(lines: readonly string[]): string {
  return lines.find((line) => line.trim() !== "") ?? "";
}

/** The one shift that turns every matched SEARCH line's indentation into the file's, if any. */
function uniformShift(search: readonly string[], fileLines: readonly string[]): Shift | undefined {
  let shift: Shift | undefined;
  for (const [j, line] of search.entries()) {
    const fileLine = fileLines[j] ?? "";
    if (line.trim() === "" || line.trim() !== fileLine.trim()) continue;
    const [s, f] = [leading(line), leading(fileLine)];
    const here: Shift | undefined = f.endsWith(s) ? { add: f.slice(0, f.length - s.length) } : s.endsWith(f) ? { remove: s.slice(0, s.length - f.length) } : undefined;
    if (here === undefined || (shift !== undefined && !sameShift(shift, here))) return undefined;
    shift = here;
  }
  if (shift === undefined || ("add" in shift ? shift.add : shift.remove) === "") return undefined;
  return shift;
}

function sameShift(a: Shift, b: Shift): boolean {
  return "add" in a ? "add" in b && a.add === b.add : "remove" in b && a.remove === b.remove;
}
