import { describe, expect, it } from "vitest";
import { clip, DiffSyntaxError, parseDiff } from "./diff-parse";

/** The (search, replace) pairs a final parse reads. */
const pairs = (diff: string) => parseDiff(diff, true).map((b) => [b.search, b.replace]);

/** The DiffSyntaxError a final parse throws. */
function syntaxError(diff: string): DiffSyntaxError {
  try {
    parseDiff(diff, true);
  } catch (error) {
    if (error instanceof DiffSyntaxError) return error;
    throw error;
  }
  throw new Error("expected a DiffSyntaxError");
}

describe("parseDiff reads the markers models actually write", () => {
  it.each([
    ["with trailing spaces", "------- SEARCH   "],
    ["indented", "   ------- SEARCH"],
    ["with no space before the word", "-------SEARCH"],
    ["in lower case", "------- search"],
    ["with a trailing >", "------- SEARCH>"],
    ["with a trailing > and spaces", "-------  SEARCH>  "],
    ["as three dashes", "--- SEARCH"],
    ["as legacy angle brackets", "<<<<<<< SEARCH"],
    ["as three legacy angle brackets", "<<< SEARCH"],
  ])("a SEARCH marker %s still opens a block", (_name, marker) => {
    expect(pairs(`${marker}\na\n===\nb\n+++++++ REPLACE`)).toEqual([[["a"], ["b"]]]);
  });

  it.each([
    ["with trailing spaces", "+++++++ REPLACE   "],
    ["indented", "   +++++++ REPLACE"],
    ["with no space before the word", "+++++++REPLACE"],
    ["in lower case", "+++++++ replace"],
    ["with a trailing >", "+++++++ REPLACE>"],
    ["with a trailing > and spaces", "+++++++  REPLACE>  "],
    ["as three pluses", "+++ REPLACE"],
    ["as legacy angle brackets", ">>>>>>> REPLACE"],
    ["as three legacy angle brackets", ">>> REPLACE"],
  ])("a REPLACE marker %s still closes a block (the next block is read as a block)", (_name, marker) => {
    expect(pairs(`------- SEARCH\na\n=======\nb\n${marker}\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE`)).toEqual([
      [["a"], ["b"]],
      [["c"], ["d"]],
    ]);
  });

  it.each([
    ["two dashes", "-- SEARCH"],
    ["mixed marker characters", "-<- SEARCH"],
    ["another word after SEARCH", "------- SEARCH here"],
    ["text before the marker", "x ------- SEARCH"],
    ["a marker without its word", "-------"],
  ])("a line with %s is not a SEARCH marker (it is text outside a block)", (_name, line) => {
    expect(syntaxError(`${line}\na\n=======\nb\n+++++++ REPLACE`).problem).toMatch(/^text outside any SEARCH\/REPLACE block/);
  });

  it.each([
    ["two pluses", "++ REPLACE"],
    ["another word after REPLACE", "+++++++ REPLACE now"],
    ["text before the marker", "x +++++++ REPLACE"],
  ])("a line with %s is not a REPLACE marker: it stays in the REPLACE text", (_name, line) => {
    expect(pairs(`------- SEARCH\na\n=======\n${line}\n+++++++ REPLACE`)).toEqual([[["a"], [line]]]);
  });

  it("takes a divider with trailing spaces as the divider", () => {
    expect(pairs("------- SEARCH\na\n=======   \nb\n+++++++ REPLACE")).toEqual([[["a"], ["b"]]]);
  });

  it("keeps an indented, a two-character or a suffixed ===== line as text of the block", () => {
    expect(pairs("------- SEARCH\na\n  =======\n==\n=======x\n=======\nb\n+++++++ REPLACE")).toEqual([[["a", "  =======", "==", "=======x"], ["b"]]]);
  });

  it.each(["  =======", "x ======="])("does not take %j for the divider, even when no other line could be", (line) => {
    expect(syntaxError(`------- SEARCH\na\n${line}\nb\n+++++++ REPLACE`).problem).toContain('reaches its REPLACE marker without the "=======" line');
  });

  it("strips the CR of a CRLF diff only at the end of a line", () => {
    expect(pairs("------- SEARCH\r\na\rb\r\n=======\r\nc\r\n+++++++ REPLACE\r\n")).toEqual([[["a\rb"], ["c"]]]);
  });

  it("allows blank lines and code fences around blocks", () => {
    for (const fence of ["```", "```diff", "  ```ts  ", "```c++", "```c#", "```objective-c", "```v1.2", "```my_lang"]) {
      expect(pairs(`\n${fence}\n------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n   \n${fence}\n`), fence).toEqual([[["a"], ["b"]]]);
    }
  });

  it.each(["``` diff text", "x```", "```{lang}"])("refuses a fence-like line %j outside the blocks", (line) => {
    expect(syntaxError(`${line}\n------- SEARCH\na\n=======\nb\n+++++++ REPLACE`).problem).toMatch(/^text outside any SEARCH\/REPLACE block/);
  });

  it("numbers the blocks from 1 in diff order and marks them complete", () => {
    const blocks = parseDiff("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE\n", true);
    expect(blocks).toEqual([
      { number: 1, search: ["a"], replace: ["b"], state: "complete" },
      { number: 2, search: ["c"], replace: ["d"], state: "complete" },
    ]);
  });

  it("reads a final last block without its REPLACE marker even when its divider is shorter than the SEARCH marker", () => {
    expect(parseDiff("------- SEARCH\na\n===\nb", true)).toEqual([{ number: 1, search: ["a"], replace: ["b"], state: "complete" }]);
  });

  it("numbers a last block without its REPLACE marker after the others", () => {
    const blocks = parseDiff("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nd\n", true);
    expect(blocks.at(-1)).toEqual({ number: 2, search: ["c"], replace: ["d"], state: "complete" });
  });
});

describe("parseDiff finds where SEARCH ends when the file has ===== lines", () => {
  it("splits at the divider as long as the SEARCH marker, even after a shorter or longer one", () => {
    expect(pairs("--- SEARCH\nTitle\n=======\n===\nNew\n+++ REPLACE")).toEqual([[["Title", "======="], ["New"]]]);
    expect(pairs("<<<<< SEARCH\nTitle\n===\n=====\nNew\n>>>>> REPLACE")).toEqual([[["Title", "==="], ["New"]]]);
    expect(pairs("  --- SEARCH\nTitle\n=======\n===\nNew\n+++ REPLACE"), "an indented marker counts only its dashes").toEqual([[["Title", "======="], ["New"]]]);
  });

  it("splits at the first divider when none is as long as the SEARCH marker", () => {
    expect(pairs("--- SEARCH\na\n=====\nb\n=======\nc\n+++ REPLACE")).toEqual([[["a"], ["b", "=======", "c"]]]);
  });

  it("while streaming, waits for a divider as long as the marker, or for the REPLACE marker", () => {
    expect(parseDiff("--- SEARCH\na\n=======\nb\n", false)).toEqual([]);
    expect(parseDiff("--- SEARCH\na\n=======\nb\n+++ REPLACE\n", false)).toEqual([{ number: 1, search: ["a"], replace: ["b"], state: "complete" }]);
    expect(parseDiff("--- SEARCH\na\n===\nb\n", false)).toEqual([{ number: 1, search: ["a"], replace: ["b"], state: "replacing" }]);
  });

  it("while streaming, shows a block's REPLACE so far as replacing, after the complete ones", () => {
    expect(parseDiff("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nd", false)).toEqual([
      { number: 1, search: ["a"], replace: ["b"], state: "complete" },
      { number: 2, search: ["c"], replace: ["d"], state: "replacing" },
    ]);
  });
});

describe("parseDiff while the diff streams holds back only a last line that may become a marker", () => {
  const open = "------- SEARCH\na\n=======\nb\n";
  it.each(["", "  ", "+", "+++", "+++++++ ", "+++++++ R", "+++++++ rep", ">>>", "- S", "--- sea", "  +++ R", "<<<", "==", "="])("holds back %j", (tail) => {
    expect(parseDiff(open + tail, false)).toEqual([{ number: 1, search: ["a"], replace: ["b"], state: "replacing" }]);
  });

  it.each(["- item", "+ added line", "-1", "x", "+++++++ REPLACED", "== x", "x==", "a- S", "- S1", "  - SEARCHING"])("shows %j, which no marker starts with", (tail) => {
    expect(parseDiff(open + tail, false)).toEqual([{ number: 1, search: ["a"], replace: ["b", tail], state: "replacing" }]);
  });

  it("reads a last line that is already a whole marker, newline or not", () => {
    expect(parseDiff(`${open}+++++++ REPLACE`, false)).toEqual([{ number: 1, search: ["a"], replace: ["b"], state: "complete" }]);
    expect(parseDiff("------- SEARCH\na\n=======", false), "a whole divider").toEqual([{ number: 1, search: ["a"], replace: [], state: "replacing" }]);
  });

  it("holds back nothing in a final diff", () => {
    expect(parseDiff(`${open}+++ R`, true)).toEqual([{ number: 1, search: ["a"], replace: ["b", "+++ R"], state: "complete" }]);
  });

  it("returns the blocks read before a format error instead of throwing", () => {
    const diff = "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\nstray\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE\n";
    expect(parseDiff(diff, false).map((b) => b.search)).toEqual([["a"]]);
    expect(parseDiff("=======\n", false)).toEqual([]);
  });
});

describe("parseDiff's syntax errors name the line and the block", () => {
  it.each<[string, string, number, string]>([
    ["a divider outside a block", "=======\nx", 1, '"=======" outside a block: every block must start with a "------- SEARCH" line.'],
    ["a REPLACE marker outside a block", "\n+++++++ REPLACE", 2, '"+++++++ REPLACE" outside a block: every block must start with a "------- SEARCH" line.'],
    ["text outside a block", "\n\n  some words  ", 3, 'text outside any SEARCH/REPLACE block: "some words". Put every change inside a block, and nothing else in the diff.'],
    [
      "a REPLACE marker before any divider",
      "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n\n------- SEARCH\nc\n+++++++ REPLACE",
      9,
      'block 2 (opened on line 7) reaches its REPLACE marker without the "=======" line that ends the SEARCH part.',
    ],
    ["a second SEARCH marker before the divider", "------- SEARCH\na\n------- SEARCH", 3, 'block 1 (opened on line 1) has a second SEARCH marker before its "=======" line.'],
    ["a SEARCH marker before the REPLACE marker", "------- SEARCH\na\n=======\nb\n------- SEARCH", 5, 'block 1 (opened on line 1) is missing its "+++++++ REPLACE" line before the next SEARCH marker.'],
    [
      "a diff that ends inside SEARCH",
      "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\nd\n",
      8,
      'block 2 (opened on line 6) is unfinished: the diff ends before the "=======" line and the "+++++++ REPLACE" line.',
    ],
  ])("%s", (_name, diff, line, problem) => {
    const error = syntaxError(diff);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DiffSyntaxError");
    expect(error.line).toBe(line);
    expect(error.problem).toBe(problem);
    expect(error.message).toBe(`Line ${line} of the diff: ${problem}`);
  });

  it("clips long stray text in the message", () => {
    expect(syntaxError(`${"word ".repeat(30)}`).problem).toContain(`"${"word ".repeat(12).slice(0, 59)}…"`);
  });
});

describe("clip", () => {
  it("keeps text of up to 60 characters whole, trimmed", () => {
    expect(clip(`  ${"a".repeat(60)}  `)).toBe("a".repeat(60));
  });
  it("cuts longer text to the limit, ending in an ellipsis", () => {
    expect(clip("a".repeat(61))).toBe(`${"a".repeat(59)}…`);
    expect(clip("abcdef", 5)).toBe("abcd…");
    expect(clip("abcde", 5)).toBe("abcde");
  });
});
