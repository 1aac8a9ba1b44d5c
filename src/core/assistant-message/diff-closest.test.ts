import { describe, expect, it } from "vitest";
import { closestRegion } from "./diff-closest";
import { indexLines } from "./diff-match";

const similarityOf = (a: string, b: string) => closestRegion(indexLines([b]), [a])!.similarity;

describe("closestRegion's line similarity (character pairs, Dice)", () => {
  it.each<[string, string, string, number]>([
    ["identical lines", "return x;", "return x;", 1],
    ["lines equal once trimmed and whitespace runs collapsed", "  a   b\t c ", "a b c", 1],
    ["lines with no pair in common", "abc", "xyz", 0],
    ["one shared pair of four each", "night", "nacht", 0.25],
    ["a repeated pair counted once per match", "aa", "aaa", 2 / 3],
    ["a repeated pair matched as often as both have it", "aaaa", "aaa", 0.8],
    ["one character against itself", "a", " a ", 1],
    ["one character against another", "a", "b", 0],
    ["one character against a pair starting with it", "a", "ab", 0],
    ["an empty line against text", "", "abc", 0],
    ["text against an empty line", "abc", "", 0],
    ["two empty lines", "", "  ", 1],
  ])("%s", (_name, a, b, expected) => {
    expect(similarityOf(a, b)).toBeCloseTo(expected, 10);
  });

  it("is the same both ways round", () => {
    expect(similarityOf("abcd", "abxd")).toBeCloseTo(similarityOf("abxd", "abcd"), 10);
    expect(similarityOf("abcd", "abxd")).toBeCloseTo(1 / 3, 10);
  });
});

describe("closestRegion", () => {
  it("has nothing to offer for an empty file or an empty SEARCH", () => {
    expect(closestRegion(indexLines([]), ["a"])).toBeUndefined();
    expect(closestRegion(indexLines(["a"]), [])).toBeUndefined();
  });

  it("finds the window most like the SEARCH, with its mean similarity and first differing line", () => {
    const file = indexLines(["alpha", "beta", "gamma", "delta", "epsilon"]);
    expect(closestRegion(file, ["gamma", "delts"])).toEqual({ start: 2, end: 4, similarity: (1 + 0.75) / 2, firstDifference: 1 });
  });

  it("compares lines trimmed when naming the first difference", () => {
    const file = indexLines(["  a", "b", "c"]);
    expect(closestRegion(file, ["a", "  b ", "x"])).toMatchObject({ start: 0, end: 3, firstDifference: 2 });
    expect(closestRegion(file, ["a", "b", "c"])).toMatchObject({ similarity: 1, firstDifference: undefined });
  });

  it("takes the first of equally close windows", () => {
    expect(closestRegion(indexLines(["x", "a", "y", "a", "z"]), ["a"])).toMatchObject({ start: 1, end: 2, similarity: 1 });
  });

  it("looks at the last window too", () => {
    expect(closestRegion(indexLines(["p", "q", "r", "s"]), ["r", "s"])).toMatchObject({ start: 2, end: 4, similarity: 1 });
  });

  it("quotes the whole file when SEARCH is longer, scoring the missing lines as unlike", () => {
    expect(closestRegion(indexLines(["a", "b"]), ["a", "b", "c", "d"])).toEqual({ start: 0, end: 2, similarity: 0.5, firstDifference: undefined });
  });

  it("scores every window of a file up to the full-scan budget, even where the first and last lines match nothing", () => {
    // 20 lines × 20,000 windows: exactly the budget. The region is found by its middle lines alone.
    const lines = Array.from({ length: 20_019 }, (_, i) => `entry ${i}`);
    const search = ["qqqq", ...lines.slice(9_001, 9_019), "wwww"];
    expect(closestRegion(indexLines(lines), search)).toMatchObject({ start: 9_000, end: 9_020 });
  });

  describe("in a file too big to score every window", () => {
    // 21 lines × 20,000 windows is past the full-scan budget: only windows aligned with the lines
    // most like SEARCH's first and last non-blank lines are scored.
    const lines = Array.from({ length: 20_000 }, (_, i) => `line number ${i} of the file`);
    const file = indexLines(lines);

    it("still finds the region by its first and last lines", () => {
      const search = lines.slice(12_000, 12_021).map((l, j) => (j === 0 || j === 20 ? l : `${l} (changed)`));
      expect(closestRegion(file, search)).toMatchObject({ start: 12_000, end: 12_021 });
    });

    it("aligns the window with an anchor found after blank SEARCH lines", () => {
      const search = ["", ...lines.slice(15_000, 15_019).map((l) => `${l} (changed)`), "", ""].map((l, j) => (j === 1 || j === 18 ? lines[14_999 + j]! : l));
      expect(closestRegion(file, search)).toMatchObject({ start: 14_999, end: 15_021 });
    });

    it("scores only windows near the lines most like SEARCH's first and last lines, so the time stays bounded", () => {
      // 20 lines × 20,001 windows, one past the budget: a region whose middle alone matches is not looked at.
      const entries = Array.from({ length: 20_020 }, (_, i) => `entry ${i}`);
      const search = ["qqqq", ...entries.slice(9_001, 9_019), "wwww"];
      expect(closestRegion(indexLines(entries), search)!.start).toBeLessThan(200);
    });

    it("anchors on SEARCH's first line alone when its last line matches nothing", () => {
      const search = [lines[6_000]!, ...lines.slice(6_001, 6_020).map((l) => `${l} (changed)`), "nothing like it"];
      expect(closestRegion(file, search)).toMatchObject({ start: 6_000, end: 6_021 });
    });

    it("anchors on SEARCH's last line alone when its first line matches nothing", () => {
      const search = ["nothing like it", ...lines.slice(7_001, 7_020).map((l) => `${l} (changed)`), lines[7_020]!];
      expect(closestRegion(file, search)).toMatchObject({ start: 7_000, end: 7_021 });
    });

    it("never anchors on a whitespace-only first or last SEARCH line", () => {
      const blankFirst = ["  ", lines[8_000]!, ...lines.slice(8_001, 8_019).map((l) => `${l} (changed)`), "nothing like it"];
      expect(closestRegion(file, blankFirst)).toMatchObject({ start: 7_999, end: 8_020 });
      const blankLast = ["nothing like it", ...lines.slice(9_001, 9_019).map((l) => `${l} (changed)`), lines[9_019]!, "  "];
      expect(closestRegion(file, blankLast)).toMatchObject({ start: 9_000, end: 9_021 });
    });

    it("keeps a window near the file's start or end inside the file", () => {
      // Aligned with its anchor, each of these windows would stick out of the file by one line.
      const atEnd = closestRegion(file, [...lines.slice(19_979), "a last line the file lacks"])!;
      expect(atEnd.end - atEnd.start).toBe(22);
      expect(atEnd.end).toBeLessThanOrEqual(20_000);
      const atStart = closestRegion(file, ["a first line the file lacks", ...lines.slice(0, 21)])!;
      expect(atStart.end - atStart.start).toBe(22);
      expect(atStart.start).toBeGreaterThanOrEqual(0);
    });

    it("falls back to the start of the file when SEARCH has no line to anchor on", () => {
      const region = closestRegion(file, Array.from({ length: 21 }, () => "   "));
      expect(region).toMatchObject({ start: 0, end: 21 });
      expect(region!.similarity).toBeGreaterThanOrEqual(0);
    });
  });
});
