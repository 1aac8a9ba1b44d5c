import { describe, expect, it } from "vitest";
import { foldCase, matchDigest, matchText, parseQuery, RANK, snippetOf, subsequence } from "./text-match";
import { MODEL_MARK, PERSON_MARK } from "./task-digest";

const q = (text: string) => parseQuery(text)!;
const inText = (text: string, query: string) => matchText(foldCase(text), q(query));

describe("a query against a task's text", () => {
  it("ranks exact, prefix, a word's start, a substring, the words apart, then a close subsequence", () => {
    expect(inText("Add a retry", "add a retry")).toEqual({ rank: RANK.textExact, ranges: [[0, 11]] });
    expect(inText("  Add a retry", "ADD")).toEqual({ rank: RANK.textPrefix, ranges: [[2, 5]] });
    // "try" is inside "retry" first, but starts a word later: the word's start is shown.
    expect(inText("Add a retry, then try again", "try")).toEqual({ rank: RANK.textWordStart, ranges: [[18, 21]] });
    expect(inText("Add a retry", "etr")).toEqual({ rank: RANK.textSubstring, ranges: [[7, 10]] });
    expect(inText("Add a retry to the fetcher", "fetcher retry")).toEqual({ rank: RANK.textWords, ranges: [[6, 11], [19, 26]] });
    expect(inText("Add a retry to the fetcher", "rtry")).toEqual({ rank: RANK.textFuzzy, ranges: [[6, 7], [8, 11]] });
    expect(inText("Add a retry", "zebra")).toBeUndefined();
  });

  it("folds case and whitespace without moving any index", () => {
    expect(foldCase("İstanbul\nQ")).toBe("İstanbul q");
    expect(inText("Fix İSTANBUL", "stanbul")).toEqual({ rank: RANK.textSubstring, ranges: [[5, 12]] });
    expect(inText("Fix the\tparser", "the parser")).toEqual({ rank: RANK.textWordStart, ranges: [[4, 14]] });
  });

  it("takes a subsequence only where its letters are close: over a long text one would match anything", () => {
    expect(subsequence("a-b-c", "abc")).toEqual([[0, 1], [2, 3], [4, 5]]);
    // The tightest window wins, not the first.
    expect(subsequence("a......bc abc", "abc")).toEqual([[10, 13]]);
    expect(subsequence(`a${" ".repeat(30)}b${" ".repeat(30)}c`, "abc")).toBeUndefined();
    expect(subsequence("abc", "x")).toBeUndefined();
  });

  it("ignores control characters in a query, so it never spans a digest's line marks", () => {
    expect(parseQuery(`  a\u0001b  `)?.text).toBe("a b");
    expect(parseQuery(" \u0002 ")).toBeUndefined();
  });
});

describe("a query against a conversation digest", () => {
  const digest = `${PERSON_MARK}Please make the build faster\n${MODEL_MARK}I switched the bundler to esbuild, which cut the build from 40 s to 3 s and kept the output the same.`;

  it("finds a substring, or every word of a query somewhere, and shows the words around the first", () => {
    const hit = matchDigest(foldCase(digest), q("ESBUILD"))!;
    expect(hit.rank).toBe(RANK.conversationSubstring);
    const snippet = snippetOf(digest, hit.ranges);
    expect(snippet.by).toBe("model");
    expect(snippet.text.slice(snippet.ranges[0]![0], snippet.ranges[0]![1])).toBe("esbuild");
    const long = snippetOf(`${MODEL_MARK}${"x ".repeat(100)}needle${" y".repeat(100)}`, [[201, 207]]);
    expect(long.text).toMatch(/^…x x .*needle y y .*…$/);
    expect(long.text.slice(long.ranges[0]![0], long.ranges[0]![1])).toBe("needle");
    const words = matchDigest(foldCase(digest), q("faster bundler"))!;
    expect(words.rank).toBe(RANK.conversationWords);
    expect(snippetOf(digest, words.ranges)).toMatchObject({ by: "person", text: "Please make the build faster" });
    expect(matchDigest(foldCase(digest), q("webpack"))).toBeUndefined();
  });

  it("never matches across two messages", () => {
    expect(matchDigest(foldCase(digest), q("faster i switched"))?.rank).toBe(RANK.conversationWords);
    expect(foldCase(digest).indexOf("faster i switched")).toBe(-1);
  });
});
