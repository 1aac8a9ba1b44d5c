import { describe, expect, it } from "vitest";
import { minimalReplacement } from "../../src/host/vscode/streamed-edit";

function apply(current: string, proposed: string): string {
  const change = minimalReplacement(current, proposed);
  return change ? current.slice(0, change.start) + change.text + current.slice(change.end) : current;
}

describe("minimalReplacement", () => {
  it("is undefined for equal texts", () => {
    expect(minimalReplacement("same", "same")).toBeUndefined();
  });

  it("turns a streamed append into an insertion at the end", () => {
    expect(minimalReplacement("function a() {\n", "function a() {\n  return 1;\n")).toEqual({ start: 15, end: 15, text: "  return 1;\n" });
  });

  it("replaces only the changed middle of a file", () => {
    const before = "head\nold line\ntail\n";
    expect(minimalReplacement(before, "head\nnew line\ntail\n")).toEqual({ start: 5, end: 8, text: "new" });
  });

  it("never splits a CRLF or a surrogate pair", () => {
    const crlf = minimalReplacement("a\r\nb", "a\rX\nb");
    expect(crlf && crlf.start).toBeLessThanOrEqual(1);
    const emoji = minimalReplacement("x😀y", "x😃y"); // same high surrogate, different low one
    expect(emoji).toEqual({ start: 1, end: 3, text: "😃" });
  });

  it("always rebuilds the proposal (random texts)", () => {
    let seed = 3;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = ["a", "b", "\r\n", "\n", "😀", "😃"];
    const pick = () => Array.from({ length: Math.floor(next() * 10) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    for (let i = 0; i < 500; i++) {
      const current = pick();
      const proposed = pick();
      expect(apply(current, proposed)).toBe(proposed);
    }
  });
});
