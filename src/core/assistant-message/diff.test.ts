import { describe, expect, it } from "vitest";
import { applyDiff, constructNewFileContent, DiffApplyError } from "./diff";

/** One block in Cline's format; `markers` swaps in other marker spellings. */
function block(search: string, replace: string, markers = ["------- SEARCH", "=======", "+++++++ REPLACE"]): string {
  const [open, divider, close] = markers;
  return [open, ...(search === "" ? [] : [search]), divider, ...(replace === "" ? [] : [replace]), close].join("\n");
}
const diffOf = (...blocks: string[]) => blocks.join("\n");

const CODE = [
  "import { a } from './a';", // 1
  "", // 2
  "export function first() {", // 3
  "  return 1;", // 4
  "}", // 5
  "", // 6
  "export function second() {", // 7
  "  const x = 2;", // 8
  "  return x;", // 9
  "}", // 10
  "", // 11
  "export function third() {", // 12
  "  return 3;", // 13
  "}", // 14
].join("\n") + "\n";

/** CODE with some lines (1-based) swapped for others. */
function codeWith(changes: Record<number, string | null>): string {
  const lines = CODE.split("\n");
  for (const [n, text] of Object.entries(changes)) lines[Number(n) - 1] = text ?? "\u0000";
  return lines.filter((l) => l !== "\u0000").join("\n");
}

function failure(diff: string, original: string): DiffApplyError {
  try {
    constructNewFileContent(diff, original, true);
  } catch (error) {
    if (error instanceof DiffApplyError) return error;
    throw error;
  }
  throw new Error("expected a DiffApplyError");
}

describe("constructNewFileContent applies blocks", () => {
  it.each<{ name: string; original: string; diff: string; expected: string }>([
    {
      name: "an exact match",
      original: CODE,
      diff: block("  return 1;", "  return 10;"),
      expected: codeWith({ 4: "  return 10;" }),
    },
    {
      name: "a match that ignores leading/trailing whitespace (mixed shifts leave REPLACE as given)",
      original: CODE,
      diff: block("export function second() {\nconst x = 2;   ", "export function second() {\n  const x = 20;"),
      expected: codeWith({ 8: "  const x = 20;" }),
    },
    {
      name: "a match with one level of indentation missing throughout: REPLACE is indented alike",
      original: "class A:\n    def f(self):\n        return 1\n",
      diff: block("def f(self):\n    return 1", "def f(self):\n\n    # one\n    return 1"),
      expected: "class A:\n    def f(self):\n\n        # one\n        return 1\n",
    },
    {
      name: "a match with an extra level of indentation throughout: REPLACE loses it alike",
      original: "if x:\n  y()\n",
      diff: block("    if x:\n      y()", "    if x:\n      z()"),
      expected: "if x:\n  z()\n",
    },
    {
      name: "a REPLACE already written at the file's indentation is left as given",
      original: "if x:\n  y()\n",
      diff: block("if x:\ny()", "if x:\n  z()"),
      expected: "if x:\n  z()\n",
    },
    {
      name: "an anchored match shifts REPLACE by its anchors' indentation",
      original: "mod m {\n    fn main() {\n        let a = 1;\n    }\n}\n",
      diff: block("fn main() {\n    let a = 9;\n}", "fn main() {\n    let a = 3;\n}"),
      expected: "mod m {\n    fn main() {\n        let a = 3;\n    }\n}\n",
    },
    {
      name: "a 3+ line block by its first and last lines when the middle differs",
      original: CODE,
      diff: block("export function second() {\n  const y = 99;\n  return y;\n}", "export function second() {\n  return 2;\n}"),
      expected: codeWith({ 8: "  return 2;", 9: null }),
    },
    {
      name: "blocks given out of file order",
      original: CODE,
      diff: diffOf(block("  return 3;", "  return 30;"), block("  return 1;", "  return 10;")),
      expected: codeWith({ 4: "  return 10;", 13: "  return 30;" }),
    },
    {
      name: "several blocks, adjacent ones included",
      original: CODE,
      diff: diffOf(
        block("import { a } from './a';", "import { a, b } from './a';"),
        block("export function first() {", "export function first(): number {"),
        block("  const x = 2;", "  const x = b;"),
        block("  return x;", "  return x + 1;"),
      ),
      expected: codeWith({ 1: "import { a, b } from './a';", 3: "export function first(): number {", 8: "  const x = b;", 9: "  return x + 1;" }),
    },
    { name: "an empty SEARCH on an empty file", original: "", diff: block("", "line one\nline two"), expected: "line one\nline two\n" },
    { name: "an empty SEARCH on a whitespace-only file", original: "\n  \n", diff: block("", "hello"), expected: "hello\n" },
    {
      name: "a deletion (empty REPLACE) removing whole lines",
      original: CODE,
      diff: block("export function second() {\n  const x = 2;\n  return x;\n}\n", ""),
      expected: codeWith({ 7: null, 8: null, 9: null, 10: null, 11: null }),
    },
    { name: "a deletion of the last line of a file without a final newline", original: "a\nb\nc", diff: block("c", ""), expected: "a\nb" },
    { name: "a deletion of every line", original: "a\nb\n", diff: block("a\nb", ""), expected: "" },
    { name: "a CRLF file edited with an LF diff stays CRLF", original: "one\r\ntwo\r\nthree\r\n", diff: block("two", "2\nzwei"), expected: "one\r\n2\r\nzwei\r\nthree\r\n" },
    { name: "an LF file edited with a CRLF diff stays LF", original: "one\ntwo\n", diff: block("one", "1").replaceAll("\n", "\r\n"), expected: "1\ntwo\n" },
    { name: "mixed line endings: untouched lines keep their own", original: "a\r\nb\nc\r\n", diff: block("b", "B"), expected: "a\r\nB\r\nc\r\n" },
    { name: "no final newline stays absent when the last line changes", original: "x\ny", diff: block("y", "why\nzed"), expected: "x\nwhy\nzed" },
    { name: "a final newline stays present when the last line changes", original: "x\ny\n", diff: block("y", "why"), expected: "x\nwhy\n" },
    { name: "no final newline stays absent when an inner line changes", original: "x\ny", diff: block("x", "ex"), expected: "ex\ny" },
    { name: "a byte order mark is kept and does not hinder matching", original: "\uFEFFfirst\nsecond\n", diff: block("first", "1st"), expected: "\uFEFF1st\nsecond\n" },
    { name: "legacy <<<<<<< / >>>>>>> markers", original: CODE, diff: block("  return 3;", "  return 33;", ["<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"]), expected: codeWith({ 13: "  return 33;" }) },
    { name: "three-character markers", original: "a\nb\n", diff: block("b", "B", ["--- SEARCH", "===", "+++ REPLACE"]), expected: "a\nB\n" },
    { name: "long markers with a trailing >", original: "a\nb\n", diff: block("a", "A", ["------------ SEARCH>", "==========", "++++++++++ REPLACE>"]), expected: "A\nb\n" },
    { name: "legacy short markers", original: "a\nb\n", diff: block("a", "A", ["<<< SEARCH", "===", ">>> REPLACE"]), expected: "A\nb\n" },
    { name: "a code fence around the whole diff", original: "a\nb\n", diff: `\`\`\`diff\n${block("b", "B")}\n\`\`\`\n`, expected: "a\nB\n" },
    { name: "a REPLACE that contains a ======= line of its own", original: "title\n", diff: block("title", "Title\n=======\nbody"), expected: "Title\n=======\nbody\n" },
    {
      name: "a SEARCH and REPLACE with ===== heading underlines: the divider as long as the SEARCH marker wins",
      original: "Title\n=====\n\nText.\n",
      diff: block("Title\n=====", "New title\n========="),
      expected: "New title\n=========\n\nText.\n",
    },
    {
      name: "short markers with a ======= line in REPLACE",
      original: "a\nb\n",
      diff: block("a", "A\n=======", ["--- SEARCH", "===", "+++ REPLACE"]),
      expected: "A\n=======\nb\n",
    },
  ])("$name", ({ original, diff, expected }) => {
    expect(constructNewFileContent(diff, original, true)).toBe(expected);
  });

  it("applies a final diff whose last block lacks its REPLACE marker (models often leave it out)", () => {
    const diff = diffOf(block("  return 1;", "  return 10;"), "------- SEARCH\n  return 3;\n=======\n  return 30;");
    expect(constructNewFileContent(diff, CODE, true)).toBe(codeWith({ 4: "  return 10;", 13: "  return 30;" }));
    // While it streams, the same block is still "replacing": shown, never taken as complete.
    expect(applyDiff(diff, CODE, false).blocks.at(-1)?.partial).toBe(true);
  });

  it("reports where each block landed and how it matched", () => {
    const applied = applyDiff(diffOf(block("  return 3;", "  return 3;\n  // three"), block("    return 1;", "  return 1; // one")), CODE, true);
    expect(applied.blocks).toEqual([
      { number: 1, strategy: "exact", original: { start: 12, end: 13 }, result: { start: 12, end: 14 }, reindented: false, partial: false },
      { number: 2, strategy: "trimmed", original: { start: 3, end: 4 }, result: { start: 3, end: 4 }, reindented: false, partial: false },
    ]);
  });
});

describe("SEARCH lines copied with read_file's line numbers", () => {
  it("applies them when every line is numbered in order and they stand at those numbers", () => {
    const numbered = block("3|export function first() {\n4|  return 1;", "3|export function first() {\n4|  return 10;");
    expect(constructNewFileContent(numbered, CODE, true)).toBe(codeWith({ 4: "  return 10;" }));
    // The older padded form, and a REPLACE without numbers, work alike.
    expect(constructNewFileContent(block("   8 |   const x = 2;\n   9 |   return x;", "  const x = 5;\n  return x;"), CODE, true)).toBe(codeWith({ 8: "  const x = 5;" }));
  });

  it("picks, of several places, the one the numbers name", () => {
    const applied = applyDiff(block("10|}", "10|};"), CODE, true);
    expect(applied.blocks[0]?.original).toEqual({ start: 9, end: 10 });
    expect(applied.content).toBe(codeWith({ 10: "};" }));
  });

  it("leaves a file whose own lines look numbered to the ordinary rules", () => {
    const table = "1|one\n2|two\n3|three\n";
    expect(constructNewFileContent(block("2|two", "2|TWO"), table, true)).toBe("1|one\n2|TWO\n3|three\n");
    // Numbers that skip are not line numbers.
    expect(() => constructNewFileContent(block("3|export function first() {\n5|}", "x"), CODE, true)).toThrow(DiffApplyError);
  });
});

describe("constructNewFileContent refuses what it cannot apply", () => {
  it("quotes the closest region with line numbers when a SEARCH is not found", () => {
    const error = failure(block("export function second() {\n  const x = 3;", "changed"), CODE);
    expect(error.message).toContain('Block 1 (SEARCH starting "export function second() {") was not found in the file.');
    expect(error.message).toContain("The closest region of the file is lines 7-8 (");
    expect(error.message).toContain("7|export function second() {\n8|  const x = 2;\nFirst difference");
    expect(error.message).toContain('First difference: SEARCH line 2 is "const x = 3;", but line 8 of the file is "const x = 2;".');
    expect(error.outcomes.map((o) => o.kind)).toEqual(["not_found"]);
  });

  it("reports the failed block on its own and the outcome of the others", () => {
    const error = failure(diffOf(block("  return 1;", "  return 10;"), block("  return 4;\n}", "x"), block("  return x;", "  return x * 2;")), CODE);
    expect(error.message).toMatch(/^The diff was not applied: 1 of 3 SEARCH\/REPLACE blocks failed/);
    expect(error.message).toContain('Block 2 (SEARCH starting "return 4;") was not found');
    expect(error.message).toContain('Block 1 (SEARCH starting "return 1;") matched line 4 exactly.');
    expect(error.message).toContain('Block 3 (SEARCH starting "return x;") matched line 9 exactly.');
    expect(error.message).toContain("send the whole diff again");
    expect(error.outcomes.map((o) => o.kind)).toEqual(["matched", "not_found", "matched"]);
  });

  it.each<{ name: string; original: string; diff: string; patterns: (string | RegExp)[] }>([
    {
      name: "a SEARCH that matches several places, naming each",
      original: CODE,
      diff: block("}\n", "};\n"),
      patterns: ['Block 1 (SEARCH starting "}") matches 2 places in the file (exactly): lines 5-6, lines 10-11.', "Add a few unchanged lines"],
    },
    {
      name: "an ambiguity found only by the whitespace-insensitive rule",
      original: "if (a) {\n  go();\n}\nif (b) {\n    go();\n}\n",
      diff: block("\tgo();", "stop();"),
      patterns: ["matches 2 places in the file (ignoring leading/trailing whitespace): line 2, line 5."],
    },
    {
      name: "an empty SEARCH on a non-empty file",
      original: "content\n",
      diff: block("", "more"),
      patterns: ["Block 1 (empty SEARCH) has an empty SEARCH part, but the file is not empty", "write_to_file"],
    },
    {
      name: "overlapping blocks",
      original: CODE,
      diff: diffOf(block("export function third() {\n  return 3;", "a"), block("  return 3;\n}", "b")),
      patterns: ["Block 1 (SEARCH starting \"export function third() {\") matched lines 12-13, which overlaps block 2.", "Block 2 (SEARCH starting \"return 3;\") matched lines 13-14, which overlaps block 1.", "merge"],
    },
    {
      name: "an edit that was already made",
      original: CODE,
      diff: block("  return 2;", "  return x;"),
      patterns: ["Its REPLACE text is already in the file at line 9: this edit may have been made already."],
    },
    {
      name: "SEARCH lines copied with line numbers that do not say where they are",
      original: CODE,
      diff: block("7|export function first() {\n8|  return 1;", "x"),
      patterns: ["start with line numbers"],
    },
    {
      name: "a SEARCH that resembles nothing in the file",
      original: CODE,
      diff: block("zzzz qqqq wwww", "x"),
      patterns: ["Nothing in the file resembles it closely", "read it again"],
    },
    { name: "a missing ======= line", original: CODE, diff: "------- SEARCH\na\n+++++++ REPLACE", patterns: ["Line 3 of the diff", "without the \"=======\" line", "------- SEARCH\nexact lines from the file"] },
    { name: "a SEARCH with no REPLACE part at all", original: CODE, diff: "------- SEARCH\nx", patterns: ['the "=======" line and the "+++++++ REPLACE" line'] },
    { name: "text outside the blocks", original: CODE, diff: `${block("  return 1;", "x")}\nAnd now the second change:\n${block("  return 3;", "y")}`, patterns: ['Line 6 of the diff: text outside any SEARCH/REPLACE block: "And now the second change:"'] },
    { name: "a divider without a SEARCH marker", original: CODE, diff: "  return 1;\n=======\nx\n+++++++ REPLACE", patterns: ["Line 1 of the diff: text outside"] },
    { name: "a REPLACE marker outside a block", original: CODE, diff: `${block("  return 1;", "x")}\n+++++++ REPLACE`, patterns: ['Line 6 of the diff: "+++++++ REPLACE" outside a block'] },
    { name: "a second SEARCH marker inside a block", original: CODE, diff: "------- SEARCH\na\n------- SEARCH\nb\n=======\nc\n+++++++ REPLACE", patterns: ["second SEARCH marker"] },
    { name: "a block left open before the next one", original: CODE, diff: "------- SEARCH\na\n=======\nb\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE", patterns: ['block 1 (opened on line 1) is missing its "+++++++ REPLACE" line'] },
    { name: "a diff with no blocks", original: CODE, diff: "\n\n", patterns: ["The diff contains no SEARCH/REPLACE blocks."] },
  ])("refuses $name", ({ original, diff, patterns }) => {
    const error = failure(diff, original);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DiffApplyError");
    for (const pattern of patterns) {
      if (typeof pattern === "string") expect(error.message).toContain(pattern);
      else expect(error.message).toMatch(pattern);
    }
  });

  it("diagnoses a miss in a huge file within seconds, still quoting the closest region", () => {
    // Mutation testing (stryker/vitest.config.mts) runs instrumented code, several times slower, once
    // for each mutant this test reaches: a fifth of the file (still past closestRegion's full-scan
    // budget, so its anchored search runs), and ten times the time, keep the run to minutes.
    const mutation = Boolean(process.env.TANDEM_MUTATION_RUN);
    const scale = mutation ? 0.2 : 1;
    const lines = Array.from({ length: 60_000 * scale }, (_, i) => `  const value${i} = compute(${i}, "${"x".repeat(i % 40)}");`);
    const search = lines.slice(40_000 * scale, 40_000 * scale + 40).map((l) => l.replace("compute", "computed"));
    const started = Date.now();
    const error = failure(block(search.join("\n"), "x"), `${lines.join("\n")}\n`);
    expect(Date.now() - started).toBeLessThan(1_000 * 5 * (mutation ? 10 : 1));
    expect(error.message).toContain(`lines ${40_000 * scale + 1}-${40_000 * scale + 40}`);
  });
});

describe("constructNewFileContent while the diff streams (isFinal false)", () => {
  const finalDiff = diffOf(
    block("import { a } from './a';", "import { a, z } from './a';"),
    block("  const x = 2;\n  return x;", "  const x = z(2);\n  // doubled\n  return x * 2;"),
    block("export function third() {", "export function third(): number {"),
  );
  const cuts = [...Array(finalDiff.length + 1).keys()];

  it("never throws at any cut, and the last cut gives the final result", () => {
    const final = constructNewFileContent(finalDiff, CODE, true);
    for (const cut of cuts) expect(() => constructNewFileContent(finalDiff.slice(0, cut), CODE, false)).not.toThrow();
    expect(constructNewFileContent(finalDiff, CODE, false)).toBe(final);
  });

  it("grows toward the final result: the lines that already agree with it never shrink", () => {
    const final = constructNewFileContent(finalDiff, CODE, true).split("\n");
    let agreed = 0;
    for (const cut of cuts) {
      const preview = constructNewFileContent(finalDiff.slice(0, cut), CODE, false).split("\n");
      const common = commonPrefix(preview, final);
      expect(common, `cut at ${cut}: ${JSON.stringify(finalDiff.slice(0, cut).slice(-30))}`).toBeGreaterThanOrEqual(agreed);
      agreed = common;
    }
    expect(agreed).toBe(final.length);
  });

  it("applies a block whose REPLACE is still arriving, without marker fragments", () => {
    const upToReplace = finalDiff.indexOf("  // doubled");
    const preview = constructNewFileContent(finalDiff.slice(0, upToReplace + "  // dou".length), CODE, false);
    expect(preview).toBe(codeWith({ 1: "import { a, z } from './a';", 8: "  const x = z(2);", 9: "  // dou" }));
    const atMarker = finalDiff.indexOf("+++++++ REPLACE", upToReplace);
    for (const end of ["", "+", "+++", "+++++++ REP"]) {
      const cutPreview = applyDiff(finalDiff.slice(0, atMarker) + end, CODE, false);
      expect(cutPreview.content).not.toContain("+");
      expect(cutPreview.blocks.map((b) => b.partial)).toEqual([false, true]);
    }
  });

  it("does not apply a block whose SEARCH is still arriving", () => {
    const cut = finalDiff.indexOf("  return x;");
    expect(constructNewFileContent(finalDiff.slice(0, cut), CODE, false)).toBe(codeWith({ 1: "import { a, z } from './a';" }));
    expect(constructNewFileContent("------- SEA", CODE, false)).toBe(CODE);
  });

  it("waits for the divider as long as the SEARCH marker before splitting a block with ===== lines", () => {
    const original = "Title\n=====\n\nText.\n";
    const diff = block("Title\n=====", "New title\n=========");
    for (let cut = 0; cut <= diff.length; cut++) {
      const preview = constructNewFileContent(diff.slice(0, cut), original, false);
      expect(preview.endsWith("\nText.\n"), `cut ${cut}`).toBe(true);
      expect(preview.startsWith("="), `cut ${cut}: ${JSON.stringify(preview)}`).toBe(false);
    }
  });

  it("skips blocks that fail and keeps applying the rest, never throwing", () => {
    const bad = diffOf(block("not in the file", "x"), block("}", "};"), block("  return 3;", "  return 4;"), "stray text", block("  return 1;", "y"));
    for (let cut = 0; cut <= bad.length; cut++) expect(() => constructNewFileContent(bad.slice(0, cut), CODE, false)).not.toThrow();
    expect(constructNewFileContent(bad, CODE, false)).toBe(codeWith({ 13: "  return 4;" }));
    expect(() => constructNewFileContent(bad, CODE, true)).toThrow(DiffApplyError);
  });
});

/** How many leading lines two files share. */
function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

describe("a stale SEARCH never overwrites lines the model did not see", () => {
  it("matches by anchors only when the last line agrees too, not by a first line alone", () => {
    // The first line is unique, the block has the right length, but its last line is not the file's.
    const stale = block("export function second() {\n  const y = 1;\n  return y;\n  // gone", "replaced");
    expect(failure(stale, CODE).outcomes.map((o) => o.kind)).toEqual(["not_found"]);
    expect(applyDiff(stale, CODE, false).content, "not even in the live preview").toBe(CODE);
  });

  it("does not take a blank first or last line as an anchor", () => {
    const blankLast = block("export function first() {\n  stale();\n}\n", "x");
    expect(failure(`${blankLast}`, CODE).outcomes.map((o) => o.kind), "a blank last line").toEqual(["not_found"]);
    const blankFirst = block("\nexport function second() {\n  stale();\n  stale();\n}", "x");
    expect(failure(blankFirst, CODE).outcomes.map((o) => o.kind), "a blank first line").toEqual(["not_found"]);
    const bothBlank = block("\n  stale();\n", "x");
    expect(failure(bothBlank, "a\n\nb\n\nc\n").outcomes.map((o) => o.kind)).toEqual(["not_found"]);
  });

  it("needs three lines for an anchored match: two lines must match as written", () => {
    expect(failure(block("export function second() {\n  stale;", "x"), CODE).outcomes.map((o) => o.kind)).toEqual(["not_found"]);
    expect(applyDiff(block("export function first() {\n  stale;\n}", "x"), CODE, true).blocks[0]?.strategy).toBe("anchors");
  });

  it("looks for a match up to the file's last line, and no further", () => {
    expect(constructNewFileContent(block("}", "};"), "a\n}", true)).toBe("a\n};");
    expect(constructNewFileContent(block("a\n}", "b\n}"), "x\na\n}", true)).toBe("x\nb\n}");
    expect(failure(block("a\n}\nz", "x"), "x\na\n}").outcomes.map((o) => o.kind)).toEqual(["not_found"]);
  });

  it("refuses every block that claims a line another block claims, however they nest", () => {
    // Block 1 spans lines 3-10; blocks 2 and 3 each sit inside it, apart from each other.
    const outer = block("export function first() {\n  return 1;\n}\n\nexport function second() {\n  const x = 2;\n  return x;\n}", "x");
    const innerA = block("  return 1;", "a");
    const innerB = block("  return x;", "b");
    expect(failure(diffOf(outer, innerA, innerB), CODE).outcomes.map((o) => o.kind)).toEqual(["overlap", "overlap", "overlap"]);
    // While streaming, no part of any of them is applied.
    expect(applyDiff(diffOf(innerB, innerA, outer), CODE, false).content).toBe(CODE);
    // Two blocks on the same single line overlap; blocks on neighbouring lines do not.
    expect(failure(diffOf(innerA, block("  return 1;", "c")), CODE).outcomes.map((o) => o.kind)).toEqual(["overlap", "overlap"]);
    const shortOuter = block("export function first() {\n  return 1;", "y");
    expect(failure(diffOf(shortOuter, innerA), CODE).outcomes.map((o) => o.kind), "the same start, different ends").toEqual(["overlap", "overlap"]);
  });
});

describe("what the engine tells the model about a block", () => {
  it("refuses two blocks inside a third even when an earlier block comes first in the file", () => {
    // Block 1 (lines 1-2) stands alone; block 2 (lines 3-10) holds block 3 (line 9).
    const first = block("import { a } from './a';\n", "import { b } from './b';\n");
    const outer = block("export function first() {\n  return 1;\n}\n\nexport function second() {\n  const x = 2;\n  return x;\n}", "x");
    const inner = block("  return x;", "  return y;");
    const error = failure(diffOf(first, outer, inner), CODE);
    expect(error.outcomes.map((o) => o.kind)).toEqual(["matched", "overlap", "overlap"]);
    expect(applyDiff(diffOf(first, outer, inner), CODE, false).content, "the preview applies only the block that stands alone").toBe(codeWith({ 1: "import { b } from './b';" }));
  });

  it("names the first block each overlapping block collides with", () => {
    const outer = block("export function first() {\n  return 1;\n}\n\nexport function second() {\n  const x = 2;\n  return x;\n}", "x");
    const error = failure(diffOf(outer, block("  return 1;", "a"), block("  return x;", "b")), CODE);
    expect(error.message).toContain("matched lines 3-10, which overlaps block 2.");
    expect(error.message).toContain("matched line 4, which overlaps block 1.");
    expect(error.message).toContain("matched line 9, which overlaps block 1.");
  });

  it("says when a loose match re-indented REPLACE", () => {
    const applied = applyDiff(block("def f(self):\n    return 1", "def f(self):\n    return 2"), "class A:\n    def f(self):\n        return 1\n", true);
    expect(applied.blocks[0]).toMatchObject({ strategy: "trimmed", reindented: true });
  });

  it("takes a SEARCH of blank lines as empty, never as the blank line it would match", () => {
    expect(failure(block("   ", "x"), "a\n\nb\n").outcomes.map((o) => o.kind)).toEqual(["empty_search"]);
    expect(failure(block("\t\n  ", "x"), "a\n\n\nb\n").outcomes.map((o) => o.kind)).toEqual(["empty_search"]);
  });

  it("says an edit may have been made already only when its REPLACE stands in the file by the strict rules", () => {
    const blankReplace = failure(block("nowhere", "  "), "a\n\nb\n");
    expect(blankReplace.message).not.toContain("already in the file");
    // REPLACE's first and last lines are in the file, its middle is not: an anchored match is no evidence.
    const anchored = failure(block("nowhere at all", "export function second() {\n  const y = 1;\n  return x;\n}"), CODE);
    expect(anchored.message).not.toContain("already in the file");
    const withBlank = failure(block("nowhere at all", "}\n\nexport function third() {"), CODE);
    expect(withBlank.message, "a REPLACE with a blank line among others").toContain("Its REPLACE text is already in the file at lines 10-12");
    const loose = failure(block("nowhere at all", "return x;"), CODE);
    expect(loose.message).toContain("Its REPLACE text is already in the file at line 9");
  });
});
