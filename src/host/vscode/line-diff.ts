/**
 * A small line diff (Myers' algorithm on the lines between the common head and tail) and a
 * unified-diff printer: how Tandem tells the model what the person changed in its proposal.
 * Line endings are compared as LF, so a CRLF file does not look wholly changed.
 */

export type LineOp = { readonly kind: "equal" | "delete" | "insert"; readonly line: string };

/** Beyond this many differing lines, the middle is shown as one replacement (keeps time and memory bounded). */
const MAX_EDIT_DISTANCE = 2000;
const NO_FINAL_NEWLINE = "\\ No newline at end of file";

interface SplitText {
  readonly lines: string[];
  /** True when the text does not end with a newline (and is not empty). */
  readonly noFinalNewline: boolean;
}

function splitLines(text: string): SplitText {
  const normalised = text.replace(/\r\n/g, "\n");
  if (normalised === "") return { lines: [], noFinalNewline: false };
  const lines = normalised.split("\n");
  if (lines.at(-1) === "") {
    lines.pop();
    return { lines, noFinalNewline: false };
  }
  return { lines, noFinalNewline: true };
}

/** The edit script turning `a` into `b`. */
export function diffLines(a: readonly string[], b: readonly string[]): LineOp[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  const equal = (line: string): LineOp => ({ kind: "equal", line });
  return [...a.slice(0, head).map(equal), ...diffMiddle(middleA, middleB), ...a.slice(a.length - tail).map(equal)];
}

function diffMiddle(a: readonly string[], b: readonly string[]): LineOp[] {
  const replaceAll = (): LineOp[] => [
    ...a.map((line): LineOp => ({ kind: "delete", line })),
    ...b.map((line): LineOp => ({ kind: "insert", line })),
  ];
  if (a.length === 0 || b.length === 0) return replaceAll();
  const trace = myersTrace(a, b);
  return trace ? backtrack(trace, a, b) : replaceAll();
}

/**
 * The forward pass. trace[d] holds the furthest x reached on each diagonal k (-d..d) before step
 * d, stored at index k + d + 1 (so k - 1 and k + 1 of step d - 1 fit too). Undefined when the
 * distance exceeds MAX_EDIT_DISTANCE.
 */
function myersTrace(a: readonly string[], b: readonly string[]): Int32Array[] | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, MAX_EDIT_DISTANCE);
  let v = new Int32Array(3); // d = 0: diagonals -1..1, x on diagonal 1 is 0
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v);
    const next = new Int32Array(2 * d + 3 + 2);
    const at = (k: number) => v[k + d + 1] ?? 0;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[k + d + 2] = x;
      if (x >= n && y >= m) return trace;
    }
    v = next;
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[]): LineOp[] {
  const ops: LineOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const at = (k: number) => v[k + d + 1] ?? 0;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: "equal", line: a[x - 1] as string });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "insert", line: b[y - 1] as string });
      else ops.push({ kind: "delete", line: a[x - 1] as string });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

export interface UnifiedDiffOptions {
  /** Names for the two sides in the `---` / `+++` header. */
  readonly oldLabel: string;
  readonly newLabel: string;
  /** Unchanged lines shown around each change. Default 3. */
  readonly context?: number;
}

/** A unified diff from `oldText` to `newText`; undefined when they have the same lines. */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions): string | undefined {
  const before = splitLines(oldText);
  const after = splitLines(newText);
  // A last line without its newline is a different line from the same text with one.
  const mark = (s: SplitText) => s.lines.map((line, i) => (s.noFinalNewline && i === s.lines.length - 1 ? `${line}\n` : line));
  const ops = diffLines(mark(before), mark(after));
  if (ops.every((op) => op.kind === "equal")) return undefined;
  const hunks = buildHunks(ops, options.context ?? 3);
  return [`--- ${options.oldLabel}`, `+++ ${options.newLabel}`, ...hunks.flatMap(printHunk)].join("\n") + "\n";
}

interface Hunk {
  readonly oldStart: number;
  readonly newStart: number;
  readonly ops: readonly LineOp[];
}

/** Groups changes that lie within 2 × context lines of each other into one hunk. */
function buildHunks(ops: readonly LineOp[], context: number): Hunk[] {
  const changed = ops.map((op, i) => (op.kind === "equal" ? -1 : i)).filter((i) => i >= 0);
  const ranges: { start: number; end: number }[] = [];
  for (const i of changed) {
    const last = ranges.at(-1);
    if (last && i - last.end <= 2 * context) last.end = i + 1;
    else ranges.push({ start: i, end: i + 1 });
  }
  // Line numbers before each op, on both sides.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 0;
  let n = 0;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.kind !== "insert") o++;
    if (op.kind !== "delete") n++;
  }
  return ranges.map(({ start, end }) => {
    const from = Math.max(0, start - context);
    const to = Math.min(ops.length, end + context);
    return { oldStart: oldLine[from] ?? 0, newStart: newLine[from] ?? 0, ops: ops.slice(from, to) };
  });
}

function printHunk(hunk: Hunk): string[] {
  const oldCount = hunk.ops.filter((op) => op.kind !== "insert").length;
  const newCount = hunk.ops.filter((op) => op.kind !== "delete").length;
  // Unified diff numbers lines from 1; an empty side names the line before it.
  const range = (start: number, count: number) => `${count === 0 ? start : start + 1},${count}`;
  const lines = [`@@ -${range(hunk.oldStart, oldCount)} +${range(hunk.newStart, newCount)} @@`];
  const prefix = { equal: " ", delete: "-", insert: "+" } as const;
  for (const op of hunk.ops) {
    const bare = op.line.endsWith("\n");
    lines.push(`${prefix[op.kind]}${bare ? op.line.slice(0, -1) : op.line}`);
    if (bare) lines.push(NO_FINAL_NEWLINE);
  }
  return lines;
}
