import { describe, expect, it } from "vitest";
import { newProblems, type Problem } from "../../src/host/vscode/problems";

const p = (line: number, message: string, source = "ts", code = "2304"): Problem => ({ line, message, source, code });

describe("newProblems", () => {
  it("reports only errors that were not there before, matched by content rather than position", () => {
    const before = [p(3, "Cannot find name 'x'."), p(9, "Unused label.", "eslint", "no-unused-labels")];
    // The same problem moved down by two lines (lines were added above it), plus a new one.
    const after = [p(5, "Cannot find name 'x'."), p(1, "Cannot find name 'y'."), p(11, "Unused label.", "eslint", "no-unused-labels")];
    expect(newProblems(before, after)).toEqual(["line 2: Cannot find name 'y'. [ts 2304]"]);
  });

  it("counts repeats: a second identical error is new", () => {
    expect(newProblems([p(1, "Missing semicolon.")], [p(1, "Missing semicolon."), p(4, "Missing semicolon.")])).toEqual([
      "line 5: Missing semicolon. [ts 2304]",
    ]);
  });

  it("sorts by line and leaves out an empty origin", () => {
    expect(newProblems([], [{ line: 7, message: "b" }, { line: 0, message: "a" }])).toEqual(["line 1: a", "line 8: b"]);
  });

  it("reports nothing when errors only went away", () => {
    expect(newProblems([p(1, "gone")], [])).toEqual([]);
  });
});
