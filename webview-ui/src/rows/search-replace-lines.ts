/**
 * Classifies the lines of a SEARCH/REPLACE diff for display, with the same lenient markers the
 * diff engine accepts (`------- SEARCH` / `=======` / `+++++++ REPLACE`, or the `<<<<<<<` /
 * `>>>>>>>` forms). Display only: applying the diff is the host's job.
 */
export type DiffLineKind = "marker" | "removed" | "added" | "context";

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

const SEARCH = /^\s*(?:-{3,}|<{3,})\s*SEARCH>?\s*$/i;
const DIVIDER = /^\s*={3,}\s*$/;
const REPLACE = /^\s*(?:\+{3,}|>{3,})\s*REPLACE>?\s*$/i;

export function classifyDiffLines(diff: string): DiffLine[] {
  let part: "outside" | "search" | "replace" = "outside";
  return diff.split("\n").map((text): DiffLine => {
    if (SEARCH.test(text)) {
      part = "search";
      return { kind: "marker", text };
    }
    if (part === "search" && DIVIDER.test(text)) {
      part = "replace";
      return { kind: "marker", text };
    }
    if (REPLACE.test(text)) {
      part = "outside";
      return { kind: "marker", text };
    }
    if (part === "search") return { kind: "removed", text };
    if (part === "replace") return { kind: "added", text };
    return { kind: "context", text };
  });
}
