import { describe, expect, it } from "vitest";
import { formatSelectionForChat, selectedLineRange } from "../../src/host/vscode/selection-text";

describe("formatSelectionForChat", () => {
  it("puts path:start-end above the code in a fence tagged with the language", () => {
    const text = formatSelectionForChat({ path: "src/a.ts", startLine: 3, endLine: 5, languageId: "typescript", text: "a();\r\nb();\r\nc();\r\n" });
    expect(text).toBe("src/a.ts:3-5\n```typescript\na();\nb();\nc();\n```\n");
  });

  it("names a single line once", () => {
    expect(formatSelectionForChat({ path: "x.py", startLine: 9, endLine: 9, languageId: "python", text: "pass" })).toBe("x.py:9\n```python\npass\n```\n");
  });

  it("makes the fence longer than any backtick run inside the code", () => {
    const text = formatSelectionForChat({ path: "README.md", startLine: 1, endLine: 3, languageId: "markdown", text: "````\ncode\n````" });
    expect(text.split("\n")[1]).toBe("`````markdown");
    expect(text.endsWith("\n`````\n")).toBe(true);
  });

  it("drops a language id that is not a plain word", () => {
    expect(formatSelectionForChat({ path: "f", startLine: 1, endLine: 1, languageId: "a b`", text: "x" })).toBe("f:1\n```\nx\n```\n");
  });
});

describe("selectedLineRange", () => {
  it("is one-based and inclusive", () => {
    expect(selectedLineRange({ line: 0 }, { line: 2, character: 4 })).toEqual({ startLine: 1, endLine: 3 });
  });

  it("leaves out the line a whole-line selection ends at the start of", () => {
    expect(selectedLineRange({ line: 4 }, { line: 7, character: 0 })).toEqual({ startLine: 5, endLine: 7 });
    expect(selectedLineRange({ line: 4 }, { line: 4, character: 0 })).toEqual({ startLine: 5, endLine: 5 });
  });
});
