import { describe, expect, it } from "vitest";
import { indexLines } from "./diff-match";
import { findNumbered, withoutLineNumbers } from "./diff-numbers";
import type { DiffBlock } from "./diff-parse";

const blockOf = (search: string[], replace: string[] = ["new"]): DiffBlock => ({ number: 1, search, replace, state: "complete" });

describe("withoutLineNumbers takes read_file's numbers off a SEARCH", () => {
  it.each([
    ["the compact form", ["12|a", "13|b"], ["a", "b"]],
    ["the padded form", ["  12 | a", "  13 | b"], ["a", "b"]],
    ["a space before the bar only", ["12 |a", "13 |b"], ["a", "b"]],
    ["a space after the bar kept as indentation in the compact form", ["12| a", "13|  b"], [" a", "  b"]],
    ["indentation after the padded form's one space", ["9 |   a", "10 | b"], ["  a", "b"]],
    ["an empty line", ["7|", "8|x"], ["", "x"]],
    ["a bar inside the text", ["5|a | b", "6|c|d"], ["a | b", "c|d"]],
  ])("%s", (_name, search, expected) => {
    expect(withoutLineNumbers(blockOf(search))?.block.search).toEqual(expected);
  });

  it("says where the numbers put the SEARCH, 0-based", () => {
    expect(withoutLineNumbers(blockOf(["12|a", "13|b"]))?.start).toBe(11);
    expect(withoutLineNumbers(blockOf(["1|a"]))?.start).toBe(0);
  });

  it.each([
    ["one line without a number", ["12|a", "b"]],
    ["numbers that skip", ["12|a", "14|b"]],
    ["numbers that repeat", ["12|a", "12|b"]],
    ["numbers that run backwards", ["13|a", "12|b"]],
    ["a line number 0", ["0|a", "1|b"]],
    ["text before the number", ["x12|a"]],
    ["a number without its bar", ["12 a"]],
    ["a bar after two spaces", ["12  | a"]],
    ["letters in the number", ["1a|x"]],
    // Text after a line separator would otherwise be dropped from SEARCH without a word.
    ["a Unicode line separator in its text", ["3|a\u2028b", "4|c"]],
    ["an empty SEARCH", []],
  ])("leaves a SEARCH with %s alone", (_name, search) => {
    expect(withoutLineNumbers(blockOf(search))).toBeUndefined();
  });

  it("takes REPLACE's numbers off only when every REPLACE line has one, in any order", () => {
    expect(withoutLineNumbers(blockOf(["3|a"], ["3|A", "9|B"]))?.block.replace).toEqual(["A", "B"]);
    expect(withoutLineNumbers(blockOf(["3|a"], ["3|A", "B"]))?.block.replace).toEqual(["3|A", "B"]);
  });

  it("keeps the rest of the block", () => {
    const block: DiffBlock = { number: 4, search: ["3|a"], replace: ["A"], state: "replacing" };
    expect(withoutLineNumbers(block)?.block).toEqual({ number: 4, search: ["a"], replace: ["A"], state: "replacing" });
  });
});

describe("findNumbered accepts a numbered SEARCH only where its numbers say", () => {
  const file = indexLines(["}", "x", "}", "  y"]);
  const numbered = (search: string[], start: number) => ({ block: blockOf(search), start });

  it("finds a single match at the named place", () => {
    expect(findNumbered(file, numbered(["x"], 1))).toEqual({ kind: "found", start: 1, strategy: "exact" });
    expect(findNumbered(file, numbered(["y"], 3))).toEqual({ kind: "found", start: 3, strategy: "trimmed" });
  });

  it("refuses a single match elsewhere", () => {
    expect(findNumbered(file, numbered(["x"], 2))).toEqual({ kind: "not_found" });
  });

  it("picks, of several matches, the named one, keeping the rule that found it", () => {
    expect(findNumbered(file, numbered(["}"], 2))).toEqual({ kind: "found", start: 2, strategy: "exact" });
    expect(findNumbered(indexLines(["  }", "\t}"]), numbered(["}"], 1))).toEqual({ kind: "found", start: 1, strategy: "trimmed" });
  });

  it("refuses several matches none of which is at the named place", () => {
    expect(findNumbered(file, numbered(["}"], 1))).toEqual({ kind: "not_found" });
  });

  it("refuses a SEARCH that is nowhere", () => {
    expect(findNumbered(file, numbered(["z"], 0))).toEqual({ kind: "not_found" });
  });
});
