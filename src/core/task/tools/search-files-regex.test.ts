import { describe, expect, it } from "vitest";
import { toJavaScriptRegExp } from "./search-files-regex";
import { ToolError } from "./types";

function refusal(pattern: string): ToolError {
  try {
    toJavaScriptRegExp(pattern);
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error(`${pattern} was accepted`);
}

describe("toJavaScriptRegExp (ripgrep syntax for the fallback search)", () => {
  it("turns leading inline flags into JavaScript flags", () => {
    const re = toJavaScriptRegExp("(?i)(?s)a.b");
    expect(re.flags).toBe("is");
    expect(re.test("A\nB")).toBe(true);
  });

  it("translates Rust-only escapes and classes", () => {
    expect(toJavaScriptRegExp("\\pL+").test("é")).toBe(true);
    expect(toJavaScriptRegExp("\\PN").test("1")).toBe(false);
    expect(toJavaScriptRegExp("\\x{1F600}").test("😀")).toBe(true);
    expect(toJavaScriptRegExp("^[[:upper:][:digit:]_]+$").test("MAX_2")).toBe(true);
    expect(toJavaScriptRegExp("^[[:upper:]]+$").test("Max")).toBe(false);
    expect(toJavaScriptRegExp("(?P<year>\\d{4})").exec("in 2024")?.groups?.year).toBe("2024");
    expect(toJavaScriptRegExp("\\Afoo\\z").test("foo")).toBe(true);
    expect(toJavaScriptRegExp("\\Afoo\\z").test("foo bar")).toBe(false);
    expect(toJavaScriptRegExp("[]x]").test("]")).toBe(true);
  });

  it("keeps escaped punctuation literal, also where the u flag forbids the escape", () => {
    expect(toJavaScriptRegExp("\\pL\\#\\-\\~").test("a#-~")).toBe(true);
    expect(toJavaScriptRegExp("[\\pL\\-]+").test("a-b")).toBe(true);
    expect(toJavaScriptRegExp("a\\.b").test("axb")).toBe(false);
  });

  it("refuses Rust-only forms it cannot translate, saying what to do instead", () => {
    expect(refusal("(?x) a b").message).toMatch(/inline flag "x".*drop it/);
    expect(refusal("a(?i:b)").message).toMatch(/inline flag group.*put \(\?i\) at the very start/);
    expect(refusal("[a-z&&[^aeiou]]").message).toMatch(/nested character class|class set operation/);
    expect(refusal("[a-y--b]").message).toMatch(/class set operation "--"/);
    expect(refusal("[[:^alpha:]]").message).toMatch(/the class \[:\^alpha:\]/);
    expect(refusal("[[:bogus:]]").message).toMatch(/the class \[:bogus:\]/);
    for (const pattern of ["(?x)", "a(?i:b)", "[a[b]]"]) expect(refusal(pattern).reason).toBe("invalid_param");
  });

  it("reports a pattern JavaScript rejects with its own message", () => {
    const error = refusal("a{2,1}");
    expect(error.message).toMatch(/^The regex is not valid: Invalid regular expression/);
  });
});
