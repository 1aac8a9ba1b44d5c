/**
 * Reads the SEARCH/REPLACE blocks out of a diff. Markers are matched leniently (three or more
 * marker characters, Cline's `------- SEARCH` / `+++++++ REPLACE` or the legacy `<<<<<<< SEARCH` /
 * `>>>>>>> REPLACE`), because models miscount them. While the diff still streams, an unfinished
 * last line that may yet become a marker is held back, and a block whose REPLACE is arriving is
 * returned as "replacing". A final diff may leave out its last REPLACE marker.
 */

export interface DiffBlock {
  /** 1-based, in the order the blocks appear in the diff. */
  readonly number: number;
  readonly search: readonly string[];
  readonly replace: readonly string[];
  /** "replacing": only while streaming, the REPLACE part is still arriving. */
  readonly state: "complete" | "replacing";
}

/** A diff that breaks the format; `line` is 1-based within the diff. */
export class DiffSyntaxError extends Error {
  override readonly name = "DiffSyntaxError";
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`Line ${line} of the diff: ${problem}`);
  }
}

const SEARCH_MARKER = /^\s*(?:-{3,}|<{3,})\s*SEARCH>?\s*$/i;
const DIVIDER = /^={3,}\s*$/;
const REPLACE_MARKER = /^\s*(?:\+{3,}|>{3,})\s*REPLACE>?\s*$/i;
const CODE_FENCE = /^\s*```[\w+#.-]*\s*$/;
const MARKER_START = /^\s*(?:-+|<+|\++|>+)\s*([A-Za-z]*)$/;

type Kind = "search" | "divider" | "replace" | "text";

function kindOf(line: string): Kind {
  if (SEARCH_MARKER.test(line)) return "search";
  if (DIVIDER.test(line)) return "divider";
  if (REPLACE_MARKER.test(line)) return "replace";
  return "text";
}

/** An unfinished line that could still grow into a marker. */
function mayBecomeMarker(line: string): boolean {
  if (line.trim() === "" || /^=+$/.test(line)) return true;
  const word = MARKER_START.exec(line)?.[1]?.toUpperCase();
  return word !== undefined && ("SEARCH".startsWith(word) || "REPLACE".startsWith(word));
}

/**
 * The diff's lines (CR stripped), leaving out the empty piece after a final newline and, while
 * streaming, an unfinished last line that may still become a marker.
 */
function diffLines(diff: string, isFinal: boolean): string[] {
  const lines = diff.split("\n").map((line) => line.replace(/\r$/, ""));
  const last = lines.at(-1);
  if (last === "" || (!isFinal && last !== undefined && kindOf(last) === "text" && mayBecomeMarker(last))) lines.pop();
  return lines;
}

/** A block whose REPLACE marker has not come yet: its lines so far, and which of them look like "=======". */
interface OpenBlock {
  readonly openedAt: number;
  /** How many marker characters its SEARCH line has: the divider is expected to match it. */
  readonly width: number;
  readonly body: string[];
  readonly dividers: number[];
}

/**
 * Where SEARCH ends. A file may itself contain "=====" lines (Markdown and RST headings), so the
 * divider as long as the block's SEARCH marker wins; failing that, the first one, but only once the
 * REPLACE marker has confirmed the block (while streaming, a later exact one may still come).
 */
function splitBody(open: OpenBlock, confirmed: boolean): { search: string[]; replace: string[] } | undefined {
  const matching = open.dividers.find((d) => /^=*/.exec(open.body[d]!)![0].length === open.width);
  const at = matching ?? (confirmed ? open.dividers[0] : undefined);
  return at === undefined ? undefined : { search: open.body.slice(0, at), replace: open.body.slice(at + 1) };
}

/**
 * Final: every block, or a DiffSyntaxError. Streaming: the blocks readable so far; a format error
 * just ends the list (the final call will report it).
 */
export function parseDiff(diff: string, isFinal: boolean): DiffBlock[] {
  const blocks: DiffBlock[] = [];
  let open: OpenBlock | undefined;
  const lines = diffLines(diff, isFinal);
  const fail = (line: number, problem: string): DiffBlock[] => {
    if (isFinal) throw new DiffSyntaxError(line, problem);
    return blocks;
  };
  for (const [i, line] of lines.entries()) {
    const kind = kindOf(line);
    if (open === undefined) {
      if (kind === "search") open = { openedAt: i + 1, width: /^\s*(-+|<+)/.exec(line)![1]!.length, body: [], dividers: [] };
      else if (kind !== "text") return fail(i + 1, `"${line}" outside a block: every block must start with a "------- SEARCH" line.`);
      else if (line.trim() !== "" && !CODE_FENCE.test(line)) {
        return fail(i + 1, `text outside any SEARCH/REPLACE block: "${clip(line)}". Put every change inside a block, and nothing else in the diff.`);
      }
      continue;
    }
    const name = `block ${blocks.length + 1} (opened on line ${open.openedAt})`;
    if (kind === "replace") {
      const parts = splitBody(open, true);
      if (!parts) return fail(i + 1, `${name} reaches its REPLACE marker without the "=======" line that ends the SEARCH part.`);
      blocks.push({ number: blocks.length + 1, ...parts, state: "complete" });
      open = undefined;
    } else if (kind === "search") {
      const problem = open.dividers.length > 0 ? `is missing its "+++++++ REPLACE" line before the next SEARCH marker` : `has a second SEARCH marker before its "=======" line`;
      return fail(i + 1, `${name} ${problem}.`);
    } else {
      if (kind === "divider") open.dividers.push(open.body.length);
      open.body.push(line);
    }
  }
  if (open === undefined) return blocks;
  if (isFinal) {
    // Models often leave out the last REPLACE marker. The tool call itself closed (a cut-off call
    // never gets here), so the diff is whole: its last block's REPLACE part runs to its end.
    const parts = splitBody(open, true);
    if (parts) return [...blocks, { number: blocks.length + 1, ...parts, state: "complete" }];
    throw new DiffSyntaxError(
      lines.length,
      `block ${blocks.length + 1} (opened on line ${open.openedAt}) is unfinished: the diff ends before the "=======" line and the "+++++++ REPLACE" line.`,
    );
  }
  const parts = splitBody(open, false);
  if (parts) blocks.push({ number: blocks.length + 1, ...parts, state: "replacing" });
  return blocks;
}

export function clip(text: string, max = 60): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}
