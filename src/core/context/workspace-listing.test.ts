import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../ignore/ignore-controller";
import { workspaceListing } from "./workspace-listing";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const signal = new AbortController().signal;

describe("workspaceListing", () => {
  it("lists breadth-first up to the limit and says what was cut and hidden", async () => {
    const root = await mkdtemp(join(tmpdir(), "tandem-listing-"));
    dirs.push(root);
    await mkdir(join(root, "a", "deep"), { recursive: true });
    for (const name of ["one.ts", "two.ts", "a/three.ts", "a/deep/four.ts", ".env"]) await writeFile(join(root, name), "x");
    const guard = await IgnoreController.create(root);
    try {
      const text = await workspaceListing(root, guard, signal, 4);
      // The top level first, then a/'s entries in name order, until the limit.
      expect(text.split("\n").slice(0, 5)).toEqual(["a/", "a/deep/", "one.ts", "two.ts", ""]);
      expect(text).toContain("[Only the first 4 entries are shown");
      expect(text).toContain("1 file that looks like it holds secrets hidden");
      for (const cut of ["three.ts", "four.ts"]) expect(text).not.toContain(cut);
    } finally {
      guard.dispose();
    }
  });

  it("does not walk the home folder", async () => {
    const text = await workspaceListing(homedir(), { isIgnored: () => false }, signal);
    expect(text).toBe("(Not listed: the workspace is the home folder. Use list_files on the folders that matter.)");
  });

  it("says why a workspace could not be listed instead of failing", async () => {
    const text = await workspaceListing(join(tmpdir(), "tandem-no-such-folder-x"), { isIgnored: () => false }, signal);
    expect(text).toMatch(/^\(The workspace could not be listed: .*ENOENT/);
  });
});
