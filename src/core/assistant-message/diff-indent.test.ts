import { describe, expect, it } from "vitest";
import { matchIndentation } from "./diff-indent";

describe("matchIndentation gives REPLACE the shift a loose match found", () => {
  it("adds the missing level to every non-blank REPLACE line, leaving blank lines as given", () => {
    const search = ["def f():", "    return 1"];
    const file = ["    def f():", "        return 1"];
    expect(matchIndentation(search, file, ["def f():", "", "  ", "    return 2"])).toEqual(["    def f():", "", "  ", "        return 2"]);
  });

  it("removes an extra level from every non-blank REPLACE line, leaving blank lines as given", () => {
    const search = ["    if x:", "      y()"];
    const file = ["if x:", "  y()"];
    expect(matchIndentation(search, file, ["    if x:", "", "   ", "      z()"])).toEqual(["if x:", "", "   ", "  z()"]);
  });

  it("judges the shift by the lines that match, skipping blank and differing ones", () => {
    // Line 2 differs (an anchored match), line 3 is blank: only lines 1 and 4 set the shift.
    const search = ["fn main() {", "let a = 9;", "", "}"];
    const file = ["  fn main() {", "      let a = 1;", "", "  }"];
    expect(matchIndentation(search, file, ["fn main() {", "    let a = 3;", "}"])).toEqual(["  fn main() {", "      let a = 3;", "  }"]);
  });

  it("reads a file shorter than SEARCH as blank past its end", () => {
    expect(matchIndentation(["a", "b"], ["  a"], ["a", "c"])).toEqual(["  a", "  c"]);
  });

  it("measures REPLACE's start at its first non-blank line", () => {
    expect(matchIndentation(["a"], ["\ta"], ["", "a", "  b"])).toEqual(["", "\ta", "\t  b"]);
    expect(matchIndentation(["  a"], ["    a"], ["", "   ", "  b"])).toEqual(["", "   ", "    b"]);
  });

  it("measures SEARCH's start at its first non-blank line", () => {
    expect(matchIndentation(["", "  a"], ["", "    a"], ["  b"])).toEqual(["    b"]);
  });

  it("skips SEARCH lines of whitespace only, however the file's line is indented", () => {
    expect(matchIndentation(["a", "  ", "b"], ["  a", "", "  b"], ["a", "b"])).toEqual(["  a", "  b"]);
  });

  it("adds a level put in front of the existing indentation (a tab before spaces)", () => {
    expect(matchIndentation(["if x:", "  y()"], ["\tif x:", "\t  y()"], ["if x:", "  z()"])).toEqual(["\tif x:", "\t  z()"]);
  });

  it("removes a level found in front of the file's indentation (a tab before spaces)", () => {
    expect(matchIndentation(["\tif x:", "\t  y()"], ["if x:", "  y()"], ["\tif x:", "\t  z()"])).toEqual(["if x:", "  z()"]);
  });
});

describe("matchIndentation leaves REPLACE exactly as given when a shift would be a guess", () => {
  const unchanged = (search: string[], file: string[], replace: string[]) => {
    const result = matchIndentation(search, file, replace);
    expect(result).toBe(replace);
  };

  it("when SEARCH is indented as in the file", () => unchanged(["  a", "b"], ["  a", "b"], ["  a"]));
  it("when the lines disagree on the shift", () => unchanged(["a", "b"], ["  a", "    b"], ["a", "b"]));
  it("when one line needs adding and another removing", () => unchanged(["a", "  b"], ["  a", "b"], ["a", "b"]));
  it("when one line needs removing and another adding", () => unchanged(["  a", "b"], ["a", "  b"], ["  a"]));
  it("when one line's shift adds what another's removes", () => unchanged(["a", "  b"], ["  a", "  b"], ["a"]));
  it("when the indentations cannot be turned into each other (tabs against spaces)", () => unchanged(["  a"], ["\ta"], ["  b"]));
  it("when the first matching line's indentation cannot be turned into the file's", () => unchanged(["  a", "b"], ["\ta", "  b"], ["  a"]));
  it("when a later line's indentation cannot be turned into the file's", () => unchanged(["a", "  b"], ["  a", "\tb"], ["a"]));
  it("when no line matches even trimmed", () => unchanged(["a"], ["  b"], ["c"]));
  it("when SEARCH has only blank lines", () => unchanged(["", "  "], ["    ", ""], ["x"]));
  it("when REPLACE does not start at SEARCH's indentation (already in the file's frame)", () => unchanged(["a", "  b"], ["    a", "      b"], ["    a", "      c"]));
  it("when a REPLACE line lacks the indentation to remove", () => unchanged(["    a", "    b"], ["a", "b"], ["    a", "  c"]));

  it("applies one shift over a mixture of added-agreeing lines", () => {
    // Both lines add the same two spaces: uniform, so REPLACE follows.
    expect(matchIndentation(["a", "  b"], ["  a", "    b"], ["a"])).toEqual(["  a"]);
    // Both remove the same two spaces.
    expect(matchIndentation(["  a", "    b"], ["a", "  b"], ["  a"])).toEqual(["a"]);
  });

  it("does not take different removals for one shift", () => {
    unchanged(["  a", "    b"], ["a", "b"], ["  a"]);
    // REPLACE could lose either removal; neither is the file's.
    unchanged(["    a", "  b"], ["a", "b"], ["    c"]);
  });
});
