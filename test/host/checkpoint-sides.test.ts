import { describe, expect, it } from "vitest";
import { binaryNote, planCheckpointDiff } from "../../src/host/vscode/checkpoint-sides";

describe("the sides of a checkpoint's diff", () => {
  it("shows the checkpoint's text on the left and the real file on the right, empty where a side does not exist", () => {
    const plan = planCheckpointDiff([
      { path: "src/a.ts", status: "modified", before: "old\n", after: "new\n" },
      { path: "added.txt", status: "added", after: "fresh\n" },
      { path: "gone.txt", status: "deleted", before: "bye\n" },
    ]);
    expect(plan).toEqual({
      entries: [
        { path: "src/a.ts", before: "old\n", right: "file" },
        { path: "added.txt", before: "", right: "file" },
        { path: "gone.txt", before: "bye\n", right: "deleted" },
      ],
      binary: [],
    });
  });

  it("leaves out files that are not text on a side that exists, and names them", () => {
    const plan = planCheckpointDiff([
      { path: "logo.png", status: "modified" },
      { path: "half.bin", status: "modified", before: "was text" },
      { path: "new.png", status: "added" },
      { path: "old.png", status: "deleted" },
      { path: "empty-now.txt", status: "modified", before: "x", after: "" },
    ]);
    expect(plan.binary).toEqual(["logo.png", "half.bin", "new.png", "old.png"]);
    expect(plan.entries.map((entry) => entry.path)).toEqual(["empty-now.txt"]);
    expect(binaryNote(plan.binary, 1)).toBe("4 files that are not text differ too, not shown in the diff: logo.png, half.bin, new.png, old.png.");
    expect(binaryNote(["a.png"], 0)).toBe("1 file that is not text differs from that checkpoint, which a diff cannot show: a.png.");
    expect(binaryNote([], 3)).toBeUndefined();
  });

  it("names at most five files", () => {
    const names = ["1", "2", "3", "4", "5", "6", "7"].map((n) => `${n}.bin`);
    expect(binaryNote(names, 0)).toMatch(/: 1\.bin, 2\.bin, 3\.bin, 4\.bin, 5\.bin and 2 more\.$/);
  });
});
