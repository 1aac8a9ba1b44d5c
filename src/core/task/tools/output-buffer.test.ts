import { describe, expect, it } from "vitest";
import { DEFAULT_OUTPUT_LIMITS, OutputBuffer, type OutputLimits } from "./output-buffer";

const small: OutputLimits = { headLines: 3, headBytes: 1_000, tailLines: 4, tailBytes: 1_000, lineChars: 100 };

function lines(from: number, to: number): string {
  return Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join("");
}

describe("OutputBuffer", () => {
  it("keeps short output whole, however it is chunked", () => {
    const text = "alpha\nbeta\ngamma";
    for (const size of [1, 2, 5, 100]) {
      const buffer = new OutputBuffer(small);
      for (let i = 0; i < text.length; i += size) buffer.append(text.slice(i, i + size));
      expect(buffer.render()).toBe(text);
      expect(buffer.omittedLines).toBe(0);
    }
  });

  it("keeps the head and the tail of long output with a marker counting what was left out", () => {
    const buffer = new OutputBuffer(small);
    buffer.append(lines(1, 20));
    expect(buffer.render()).toBe(["line 1", "line 2", "line 3", "[… 13 lines omitted …]", "line 17", "line 18", "line 19", "line 20"].join("\n"));
    expect(buffer.omittedLines).toBe(13);
  });

  it("says 'line' for a single omitted line", () => {
    const buffer = new OutputBuffer(small);
    buffer.append(lines(1, 8));
    expect(buffer.render()).toContain("[… 1 line omitted …]");
  });

  it("stays bounded by bytes: the head closes early and the tail drops lines to fit", () => {
    const limits: OutputLimits = { headLines: 100, headBytes: 25, tailLines: 100, tailBytes: 30, lineChars: 100 };
    const buffer = new OutputBuffer(limits);
    // Each "line NN" is 7 bytes + newline = 8.
    for (let i = 10; i < 60; i++) buffer.append(`line ${i}\n`);
    const shown = buffer.render().split("\n");
    expect(shown.slice(0, 3)).toEqual(["line 10", "line 11", "line 12"]);
    expect(shown.slice(-3)).toEqual(["line 57", "line 58", "line 59"]);
    expect(shown[3]).toBe("[… 44 lines omitted …]");
    expect(shown).toHaveLength(7);
  });

  it("keeps the default limits' promise for a huge output", () => {
    const buffer = new OutputBuffer();
    for (let i = 1; i <= 100_000; i++) buffer.append(`${"x".repeat(150)} ${i}\n`);
    const shown = buffer.render();
    const { headBytes, tailBytes } = DEFAULT_OUTPUT_LIMITS;
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(headBytes + tailBytes + 100);
    expect(shown).toContain(" 1\n");
    expect(shown.endsWith(" 100000")).toBe(true);
    expect(shown).toMatch(/\[… \d+ lines omitted …\]/);
  });

  it("cuts an endless line and says how much was cut", () => {
    const buffer = new OutputBuffer(small);
    for (let i = 0; i < 50; i++) buffer.append("y".repeat(10));
    expect(buffer.render()).toBe(`${"y".repeat(100)} [… line cut: 400 more characters]`);
    buffer.append("\nnext");
    expect(buffer.render()).toBe(`${"y".repeat(100)} [… line cut: 400 more characters]\nnext`);
  });

  it("shows only the last state of a line redrawn with carriage returns", () => {
    const buffer = new OutputBuffer(small);
    for (const step of ["10%", "50%", "100%"]) buffer.append(`progress ${step}\r`);
    buffer.append("\ndone\n");
    expect(buffer.render()).toBe("progress 100%\ndone");
  });

  it("treats CRLF as one line end, also when a chunk ends between CR and LF", () => {
    const buffer = new OutputBuffer(small);
    buffer.append("one\r");
    buffer.append("\ntwo\r\nthree\r");
    buffer.append("\n");
    expect(buffer.render()).toBe("one\ntwo\nthree");
  });

  it("removes colour codes and other terminal control sequences", () => {
    const buffer = new OutputBuffer(small);
    buffer.append("\x1b[1;31merror\x1b[0m: bad\x07\n\x1b]0;title\x07ok\tdone\n");
    expect(buffer.render()).toBe("error: bad\nok\tdone");
  });

  it("knows when nothing but whitespace was printed", () => {
    const buffer = new OutputBuffer(small);
    buffer.append("\n  \n");
    expect(buffer.isBlank).toBe(true);
    buffer.append("x");
    expect(buffer.isBlank).toBe(false);
  });

  it("refuses limits that are not positive whole numbers", () => {
    expect(() => new OutputBuffer({ ...small, tailLines: 0 })).toThrow(/tailLines/);
    expect(() => new OutputBuffer({ ...small, headBytes: 1.5 })).toThrow(/headBytes/);
  });
});
