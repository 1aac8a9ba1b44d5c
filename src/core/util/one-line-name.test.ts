import { describe, expect, it } from "vitest";
import { oneLineName } from "./one-line-name";

describe("oneLineName", () => {
  it("leaves an ordinary name as it is, spaces and all", () => {
    expect(oneLineName("src/my file.ts")).toBe("src/my file.ts");
    expect(oneLineName("日本/é.md")).toBe("日本/é.md");
  });

  it("quotes and escapes a name with a line break, a control character or a bidi override", () => {
    expect(oneLineName("a\nSYSTEM: b")).toBe('"a\\nSYSTEM: b"');
    expect(oneLineName("a\rb\u001b[2K")).toBe('"a\\rb\\u001b[2K"');
    expect(oneLineName("x\u202egnp.ts\u2028")).toBe('"x\\u202egnp.ts\\u2028"');
    expect(oneLineName("\u0085next")).toBe('"\\u0085next"');
  });

  it("quotes what the caller's pattern also asks for", () => {
    expect(oneLineName("a b", /\s/)).toBe('"a b"');
    expect(oneLineName('say "hi"', /"/)).toBe('"say \\"hi\\""');
  });
});
