import { describe, expect, it } from "vitest";
import { indexLines } from "./diff-match";
import type { DiffBlock } from "./diff-parse";
import { blockName, DiffApplyError, describeStrategy, failureMessage, lineSpan, quoteLines, type BlockOutcome } from "./diff-report";

const blockOf = (number: number, search: string[], replace: string[] = ["x"]): DiffBlock => ({ number, search, replace, state: "complete" });

describe("the pieces of the error text", () => {
  it("names each match strategy", () => {
    expect(describeStrategy("exact")).toBe("exactly");
    expect(describeStrategy("trimmed")).toBe("ignoring leading/trailing whitespace");
    expect(describeStrategy("anchors")).toBe("by its first and last lines only");
    expect(describeStrategy("blank_file")).toBe("as the content of the empty file");
  });

  it("names a block by its first non-blank SEARCH line, trimmed and clipped", () => {
    expect(blockName(blockOf(3, ["", "   ", "  const a = 1;"]))).toBe('Block 3 (SEARCH starting "const a = 1;")');
    expect(blockName(blockOf(1, ["", " "]))).toBe("Block 1 (empty SEARCH)");
    expect(blockName(blockOf(2, ["y".repeat(80)]))).toBe(`Block 2 (SEARCH starting "${"y".repeat(59)}…")`);
  });

  it("spells line spans 1-based and inclusive", () => {
    expect(lineSpan(3, 4)).toBe("line 4");
    expect(lineSpan(3, 6)).toBe("lines 4-6");
    expect(lineSpan(0, 2)).toBe("lines 1-2");
    expect(lineSpan(2, 2)).toBe("the start of the file");
    expect(lineSpan(2, 1)).toBe("the start of the file");
  });

  it("quotes lines as read_file shows them", () => {
    expect(quoteLines(["a", "b", "c", "d"], 1, 3)).toBe("2|b\n3|c");
    expect(quoteLines(["a"], 0, 1)).toBe("1|a");
  });

  it("quotes at most 50 lines, saying how many more there are", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `l${i}`);
    const all50 = quoteLines(lines, 5, 55).split("\n");
    expect(all50).toHaveLength(50);
    expect(all50.at(-1)).toBe("55|l54");
    const cut = quoteLines(lines, 5, 57).split("\n");
    expect(cut).toHaveLength(51);
    expect(cut.at(-2)).toBe("55|l54");
    expect(cut.at(-1)).toBe("… (2 more lines)");
  });

  it("makes DiffApplyError an Error carrying its outcomes, none by default", () => {
    const error = new DiffApplyError("bad");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DiffApplyError");
    expect(error.message).toBe("bad");
    expect(error.outcomes).toEqual([]);
  });
});

describe("failureMessage", () => {
  const file = indexLines(["alpha", "beta", "gamma", "delta", "  beta"]);
  const matched = (block: DiffBlock, start: number, end: number): BlockOutcome => ({ kind: "matched", block, start, end, strategy: "exact" });

  it("states for a single failed block only that the diff was not applied and why", () => {
    const text = failureMessage([{ kind: "empty_search", block: blockOf(1, []) }], file);
    expect(text).toBe(
      "The diff was not applied.\n\n" +
        "Block 1 (empty SEARCH) has an empty SEARCH part, but the file is not empty. An empty SEARCH only fills an empty file. " +
        "To replace the whole file use write_to_file; otherwise put the lines to change, with a little unchanged context, in SEARCH.",
    );
  });

  it("counts the failed blocks, lists the matched ones and asks for the whole diff again", () => {
    const outcomes: BlockOutcome[] = [
      matched(blockOf(1, ["alpha"]), 0, 1),
      { kind: "empty_search", block: blockOf(2, []) },
      { kind: "matched", block: blockOf(3, ["gamma", "delta"]), start: 2, end: 4, strategy: "trimmed" },
      { kind: "overlap", block: blockOf(4, ["beta"]), start: 1, end: 2, other: blockOf(5, ["beta"]) },
    ];
    const parts = failureMessage(outcomes, file).split("\n\n");
    expect(parts[0]).toBe("The diff was not applied: 2 of 4 SEARCH/REPLACE blocks failed, so none of them was applied.");
    expect(parts[1]).toMatch(/^Block 2 \(empty SEARCH\) has an empty SEARCH part/);
    expect(parts[2]).toBe(
      'Block 4 (SEARCH starting "beta") matched line 2, which overlaps block 5. Each line may be changed by one block only: merge overlapping edits into one block.',
    );
    expect(parts[3]).toBe('Block 1 (SEARCH starting "alpha") matched line 1 exactly.\nBlock 3 (SEARCH starting "gamma") matched lines 3-4 ignoring leading/trailing whitespace.');
    expect(parts[4]).toBe("Fix the failed blocks and send the whole diff again, every block included.");
    expect(parts).toHaveLength(5);
  });

  it("lists up to ten places of an ambiguous SEARCH, then how many more", () => {
    const starts = Array.from({ length: 12 }, (_, i) => i * 3);
    const text = failureMessage([{ kind: "ambiguous", block: blockOf(1, ["a", "b"]), starts, strategy: "trimmed" }], file);
    expect(text).toContain(
      'Block 1 (SEARCH starting "a") matches 12 places in the file (ignoring leading/trailing whitespace): lines 1-2, lines 4-5, lines 7-8, lines 10-11, lines 13-14, lines 16-17, lines 19-20, lines 22-23, lines 25-26, lines 28-29, and 2 more. ',
    );
    const ten = failureMessage([{ kind: "ambiguous", block: blockOf(1, ["a"]), starts: starts.slice(0, 10), strategy: "exact" }], file);
    expect(ten).toContain("(exactly): line 1, line 4, line 7, line 10, line 13, line 16, line 19, line 22, line 25, line 28. Add a few unchanged lines");
  });

  describe("for a SEARCH that was not found", () => {
    const notFound = (search: string[], extra: Partial<Extract<BlockOutcome, { kind: "not_found" }>> = {}, replace = ["x"]) =>
      failureMessage([{ kind: "not_found", block: blockOf(1, search, replace), ...extra }], file);

    it("quotes the closest region and the first difference when it is similar enough", () => {
      const text = notFound(["beta", "gamme"], { closest: { start: 1, end: 3, similarity: 0.4, firstDifference: 1 } });
      expect(text).toBe(
        [
          "The diff was not applied.",
          "",
          'Block 1 (SEARCH starting "beta") was not found in the file.',
          "The closest region of the file is lines 2-3 (40% similar):",
          "2|beta\n3|gamma",
          'First difference: SEARCH line 2 is "gamme", but line 3 of the file is "gamma".',
          "SEARCH must repeat the file's lines exactly (read_file shows the current text). Correct it and try again.",
        ].join("\n"),
      );
    });

    it("says the file may have changed when nothing is similar enough, without a first difference", () => {
      const text = notFound(["zzz"], { closest: { start: 4, end: 5, similarity: 0.394, firstDifference: 0 } });
      expect(text).toContain("Nothing in the file resembles it closely; the nearest is line 5 (39% similar). The file may have changed: read it again.\n5|  beta\nSEARCH must");
      expect(text).not.toContain("First difference");
    });

    it("rounds the similarity to a whole percent", () => {
      expect(notFound(["beta"], { closest: { start: 1, end: 2, similarity: 0.875 } })).toContain("(88% similar)");
    });

    it("leaves out the first difference when there is none to name", () => {
      expect(notFound(["beta"], { closest: { start: 1, end: 2, similarity: 0.9 } })).not.toContain("First difference");
    });

    it("quotes a SEARCH line past the file's end as empty", () => {
      const text = notFound(["delta", "  beta", "omega"], { closest: { start: 3, end: 5, similarity: 0.67, firstDifference: 2 } });
      expect(text).toContain('First difference: SEARCH line 3 is "omega", but line 6 of the file is "".');
    });

    it("says when the file is empty", () => {
      expect(notFound(["a"])).toContain("was not found in the file.\nThe file is empty.\nSEARCH must repeat");
    });

    it("says where its REPLACE text already stands", () => {
      expect(notFound(["zz"], { replaceFoundAt: 2 }, ["gamma", "delta"])).toContain("Its REPLACE text is already in the file at lines 3-4: this edit may have been made already.");
      expect(notFound(["zz"], { replaceFoundAt: 0 }, ["alpha"])).toContain("Its REPLACE text is already in the file at line 1:");
    });

    it.each([
      ["every line numbered", ["12|a", "13 | b"], true],
      ["half of the non-blank lines numbered", ["12|a", "", "b"], true],
      ["half of the lines numbered, a whitespace-only line not counted", ["12|a", "  ", "b"], true],
      ["numbers with spaces before the bar", ["  12  |a", "b"], true],
      ["fewer than half numbered", ["12|a", "b", "c"], false],
      ["only blank lines", ["", " "], false],
      ["numbers without a bar", ["12 a", "13 b"], false],
      ["a number after text", ["a 12|b"], false],
    ])("warns about copied line numbers when it has %s: %s", (_name, search, warns) => {
      expect(notFound(search).includes("Its SEARCH lines start with line numbers")).toBe(warns);
    });
  });
});
