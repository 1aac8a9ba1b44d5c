import { describe, expect, it } from "vitest";
import { applyLineEdits, isBlankFile, splitFile } from "./diff-lines";

describe("splitFile", () => {
  it("keeps each line's own break and judges the file's by the first", () => {
    expect(splitFile("a\r\nb\nc")).toEqual({ bom: "", lines: ["a", "b", "c"], breaks: ["\r\n", "\n", ""], eol: "\r\n" });
    expect(splitFile("a\nb\r\n")).toEqual({ bom: "", lines: ["a", "b"], breaks: ["\n", "\r\n"], eol: "\n" });
  });

  it("takes LF for a file without line breaks, and no lines for an empty file", () => {
    expect(splitFile("one line")).toEqual({ bom: "", lines: ["one line"], breaks: [""], eol: "\n" });
    expect(splitFile("")).toEqual({ bom: "", lines: [], breaks: [], eol: "\n" });
  });

  it("keeps empty lines between breaks", () => {
    expect(splitFile("\n\na\n")).toEqual({ bom: "", lines: ["", "", "a"], breaks: ["\n", "\n", "\n"], eol: "\n" });
  });

  it("keeps a lone CR inside a line's text", () => {
    expect(splitFile("a\rb\nc\r").lines).toEqual(["a\rb", "c\r"]);
  });

  it("sets a byte order mark aside, only at the very start", () => {
    expect(splitFile("\uFEFFa\r\n")).toEqual({ bom: "\uFEFF", lines: ["a"], breaks: ["\r\n"], eol: "\r\n" });
    expect(splitFile("a\uFEFF").bom).toBe("");
  });
});

describe("isBlankFile", () => {
  it("is true only when every line is whitespace", () => {
    expect(isBlankFile(splitFile(""))).toBe(true);
    expect(isBlankFile(splitFile(" \n\t\n"))).toBe(true);
    expect(isBlankFile(splitFile("\n\nx"))).toBe(false);
  });
});

describe("applyLineEdits", () => {
  it("replaces the given lines, keeping every other line's exact break", () => {
    const file = splitFile("a\r\nb\nc\r\nd\n");
    expect(applyLineEdits(file, [{ start: 1, end: 3, lines: ["B", "C", "X"] }])).toEqual({ text: "a\r\nB\r\nC\r\nX\r\nd\n", ranges: [{ start: 1, end: 4 }] });
  });

  it("keeps an untouched inner line's break even when it is not the file's", () => {
    expect(applyLineEdits(splitFile("a\r\nb\nc\r\nd\r\n"), [{ start: 0, end: 1, lines: ["A"] }]).text).toBe("A\r\nb\nc\r\nd\r\n");
  });

  it("applies edits given in any order, reporting each one's new lines in the order given", () => {
    const file = splitFile("0\n1\n2\n3\n4\n");
    const edited = applyLineEdits(file, [
      { start: 3, end: 4, lines: ["three", "3b"] },
      { start: 0, end: 2, lines: ["zero"] },
    ]);
    expect(edited.text).toBe("zero\n2\nthree\n3b\n4\n");
    expect(edited.ranges).toEqual([
      { start: 2, end: 4 },
      { start: 0, end: 1 },
    ]);
  });

  it("puts insertions at one place in the order they were given", () => {
    const file = splitFile("a\nb\n");
    const edited = applyLineEdits(file, [
      { start: 1, end: 1, lines: ["first"] },
      { start: 1, end: 1, lines: ["second"] },
    ]);
    expect(edited.text).toBe("a\nfirst\nsecond\nb\n");
    expect(edited.ranges).toEqual([
      { start: 1, end: 2 },
      { start: 2, end: 3 },
    ]);
  });

  it("deletes lines with an empty edit", () => {
    expect(applyLineEdits(splitFile("a\nb\nc\n"), [{ start: 1, end: 2, lines: [] }])).toEqual({ text: "a\nc\n", ranges: [{ start: 1, end: 1 }] });
  });

  it("keeps a missing final newline missing, whatever the last line becomes", () => {
    expect(applyLineEdits(splitFile("x"), [{ start: 0, end: 1, lines: ["y"] }]).text).toBe("y");
    expect(applyLineEdits(splitFile("x\ny"), [{ start: 1, end: 2, lines: ["y", "z"] }]).text).toBe("x\ny\nz");
    expect(applyLineEdits(splitFile("x\r\ny"), [{ start: 0, end: 0, lines: ["w"] }]).text).toBe("w\r\nx\r\ny");
  });

  it("gives the line before a no-newline last line a break when an edit lands after it", () => {
    expect(applyLineEdits(splitFile("x\ny"), [{ start: 2, end: 2, lines: ["z"] }]).text).toBe("x\ny\nz");
  });

  it("keeps an untouched last line's own break", () => {
    expect(applyLineEdits(splitFile("a\nb\r\n"), [{ start: 0, end: 1, lines: ["A"] }]).text).toBe("A\nb\r\n");
  });

  it("keeps a final newline, in the file's own style", () => {
    expect(applyLineEdits(splitFile("x\r\ny\r\n"), [{ start: 1, end: 2, lines: ["z"] }]).text).toBe("x\r\nz\r\n");
  });

  it("ends new content in a blank file with a newline, as editors write it", () => {
    expect(applyLineEdits(splitFile(""), [{ start: 0, end: 0, lines: ["a", "b"] }]).text).toBe("a\nb\n");
    expect(applyLineEdits(splitFile("  "), [{ start: 0, end: 1, lines: ["a"] }]).text).toBe("a\n");
    expect(applyLineEdits(splitFile("  "), [{ start: 0, end: 0, lines: ["a"] }]).text, "an insertion before the blank line").toBe("a\n  \n");
  });

  it("leaves an empty file empty when nothing is added", () => {
    expect(applyLineEdits(splitFile(""), [{ start: 0, end: 0, lines: [] }]).text).toBe("");
    expect(applyLineEdits(splitFile("a\n"), [{ start: 0, end: 1, lines: [] }]).text).toBe("");
  });

  it("keeps the byte order mark in front", () => {
    expect(applyLineEdits(splitFile("\uFEFFa\nb\n"), [{ start: 0, end: 1, lines: ["A"] }]).text).toBe("\uFEFFA\nb\n");
  });
});
