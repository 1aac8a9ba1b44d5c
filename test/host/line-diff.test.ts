import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffLines, unifiedDiff } from "../../src/host/vscode/line-diff";

const labels = { oldLabel: "a/f.txt", newLabel: "b/f.txt" };
const work = mkdtempSync(path.join(tmpdir(), "tandem-line-diff-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Applies our diff with GNU patch, a peer we did not write: it must give exactly the new text. */
function applyWithPatch(oldText: string, diff: string): string {
  const file = path.join(work, "f.txt");
  writeFileSync(file, oldText);
  writeFileSync(path.join(work, "d.patch"), diff);
  execFileSync("patch", ["--quiet", "--force", "-u", file, path.join(work, "d.patch")], { cwd: work });
  return readFileSync(file, "utf8");
}

/** Length of the longest common subsequence, by dynamic programming (small inputs only). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] as number;
      row[j] = x === b[j - 1] ? diag + 1 : Math.max(up, row[j - 1] as number);
      diag = up;
    }
  }
  return row[b.length] as number;
}

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe("diffLines", () => {
  it("finds a shortest edit script that rebuilds both sides (random inputs, checked against an LCS)", () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const pick = () => Array.from({ length: Math.floor(next() * 12) }, () => "abcd"[Math.floor(next() * 4)] as string);
      const a = pick();
      const b = pick();
      const ops = diffLines(a, b);
      expect(ops.filter((op) => op.kind !== "insert").map((op) => op.line)).toEqual(a);
      expect(ops.filter((op) => op.kind !== "delete").map((op) => op.line)).toEqual(b);
      expect(ops.filter((op) => op.kind === "equal").length).toBe(lcsLength(a, b));
    }
  });

  it("handles empty sides", () => {
    expect(diffLines([], ["x"])).toEqual([{ kind: "insert", line: "x" }]);
    expect(diffLines(["x"], [])).toEqual([{ kind: "delete", line: "x" }]);
    expect(diffLines([], [])).toEqual([]);
  });
});

describe("unifiedDiff", () => {
  it("is undefined for equal texts, also when only the line endings differ", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", labels)).toBeUndefined();
    expect(unifiedDiff("a\r\nb\r\n", "a\nb\n", labels)).toBeUndefined();
  });

  it("prints one hunk with three lines of context and 1-based ranges", () => {
    const before = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const after = before.replace("line 5\n", "line five\n");
    expect(unifiedDiff(before, after, labels)).toBe(
      ["--- a/f.txt", "+++ b/f.txt", "@@ -2,7 +2,7 @@", " line 2", " line 3", " line 4", "-line 5", "+line five", " line 6", " line 7", " line 8", ""].join("\n"),
    );
  });

  it("marks a missing final newline", () => {
    const diff = unifiedDiff("a\nb\n", "a\nb", labels) ?? "";
    expect(diff).toContain("-b\n+b\n\\ No newline at end of file\n");
    expect(applyWithPatch("a\nb\n", diff)).toBe("a\nb");
  });

  it("produces patches that GNU patch applies exactly (random edits of a longer file)", () => {
    const next = random(42);
    const base = Array.from({ length: 60 }, (_, i) => `const v${i} = ${i};`);
    for (let round = 0; round < 25; round++) {
      const lines = [...base];
      for (let edits = 1 + Math.floor(next() * 4); edits > 0; edits--) {
        const at = Math.floor(next() * lines.length);
        const kind = next();
        if (kind < 0.33) lines.splice(at, 1);
        else if (kind < 0.66) lines.splice(at, 0, `// inserted ${round}-${edits}`);
        else lines[at] = `${lines[at]} // changed`;
      }
      const before = `${base.join("\n")}\n`;
      const after = `${lines.join("\n")}\n`;
      const diff = unifiedDiff(before, after, labels);
      if (before === after) expect(diff).toBeUndefined();
      else expect(applyWithPatch(before, diff ?? "")).toBe(after);
    }
  });

  it("keeps two distant changes in separate hunks and merges close ones", () => {
    const before = Array.from({ length: 30 }, (_, i) => `${i}`).join("\n") + "\n";
    const far = before.replace("\n2\n", "\nTWO\n").replace("\n25\n", "\nTWENTY-FIVE\n");
    expect((unifiedDiff(before, far, labels) ?? "").match(/^@@/gm)).toHaveLength(2);
    const near = before.replace("\n2\n", "\nTWO\n").replace("\n7\n", "\nSEVEN\n");
    expect((unifiedDiff(before, near, labels) ?? "").match(/^@@/gm)).toHaveLength(1);
  });

  it("stays correct when nearly every line differs (beyond the edit-distance bound)", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join("\n") + "\n";
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join("\n") + "\n";
    const started = Date.now();
    const diff = unifiedDiff(before, after, labels) ?? "";
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(applyWithPatch(before, diff)).toBe(after);
  });
});
