/**
 * The ignore controller's path decision, without its watcher (ignore-controller.test.ts, an
 * integration test, covers the reloads a file change starts): which paths tools may not touch.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController, realOrSelf } from "./ignore-controller";
import { compileIgnoreRules, ruleVerdict } from "./ignore-rules";

let root: string;
beforeEach(async () => {
  root = realOrSelf(await mkdtemp(path.join(tmpdir(), "tandem-ignore-rules-")));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const at = (...parts: string[]) => path.join(root, ...parts);

/** A controller with the ignore files loaded, not watching. */
async function loaded(options?: ConstructorParameters<typeof IgnoreController>[1]): Promise<IgnoreController> {
  const controller = new IgnoreController(root, options);
  await controller.reload();
  return controller;
}

describe("compileIgnoreRules", () => {
  it("reads every line, whatever its line ending, skipping blank lines and comments", () => {
    const { rules, problems } = compileIgnoreRules("# a comment\r\nsecret.txt\r\n\r\n   \n*.log\nkeys/\n", ".tandemignore");
    expect(problems).toEqual([]);
    expect(rules.ignores("secret.txt"), "a CRLF line is not taken with its \\r").toBe(true);
    expect(rules.ignores("app.log")).toBe(true);
    expect(rules.ignores("keys/")).toBe(true);
    expect(rules.ignores("# a comment")).toBe(false);
    expect(rules.ignores("other.txt")).toBe(false);
  });

  it("keeps an indented # line, or one with # inside, as a pattern, as git does", () => {
    expect(compileIgnoreRules(" #notes", "x").rules.ignores(" #notes")).toBe(true);
    expect(compileIgnoreRules("notes#\n", "x").rules.ignores("notes#"), "only a line starting with # is a comment").toBe(true);
  });
});

describe("ruleVerdict", () => {
  it("tells a match, a re-include and no opinion apart", () => {
    const { rules } = compileIgnoreRules("*.log\n!keep.log\n", ".tandemignore");
    expect(ruleVerdict(rules, "app.log")).toBe("ignored");
    expect(ruleVerdict(rules, "keep.log")).toBe("unignored");
    expect(ruleVerdict(rules, "app.ts")).toBeUndefined();
  });
});

describe("IgnoreController's path decision", () => {
  it("refuses what .tandemignore lists, judged from the workspace root", async () => {
    await writeFile(at(".tandemignore"), "secret.txt\n/rooted.txt\n");
    const c = await loaded();
    expect(c.activeFiles).toEqual([".tandemignore"]);
    expect(c.isIgnored(at("secret.txt"))).toBe(true);
    expect(c.isIgnored(at("sub", "secret.txt"))).toBe(true);
    expect(c.isIgnored(at("rooted.txt"))).toBe(true);
    expect(c.isIgnored(at("sub", "rooted.txt"))).toBe(false);
    expect(c.isIgnored("secret.txt"), "a relative path is read from the root").toBe(true);
    expect(c.isIgnored(root), "the root itself").toBe(false);
    expect(c.isIgnored(path.join(path.dirname(root), "secret.txt")), "outside the root its rules do not apply").toBe(false);
  });

  it("keeps every rule when .tandemignore cannot be read: the reload fails, it is not taken as no file", async () => {
    await writeFile(at(".tandemignore"), "secret.txt\n");
    const c = await loaded();
    await rm(at(".tandemignore"));
    await mkdir(at(".tandemignore")); // reading it now fails with EISDIR, not ENOENT
    await expect(c.reload()).rejects.toMatchObject({ code: "EISDIR" });
    expect(c.isIgnored(at("secret.txt"))).toBe(true);
    expect(c.activeFiles).toEqual([".tandemignore"]);
    await expect(new IgnoreController(root).reload(), "a first load fails too").rejects.toMatchObject({ code: "EISDIR" });
  });

  it("takes a missing file, or a root that is not a folder, as no rules", async () => {
    expect((await loaded()).activeFiles).toEqual([]);
    await writeFile(at("file"), "x");
    const onAFile = new IgnoreController(at("file"));
    await onAFile.reload(); // ENOTDIR
    expect(onAFile.activeFiles).toEqual([]);
    expect(onAFile.isIgnored(at("file", "x"))).toBe(false);
  });

  it("drops the rules of a file that was deleted", async () => {
    await writeFile(at(".tandemignore"), "secret.txt\n");
    const c = await loaded();
    await rm(at(".tandemignore"));
    await c.reload();
    expect(c.activeFiles).toEqual([]);
    expect(c.isIgnored(at("secret.txt"))).toBe(false);
  });

  it("reads .clineignore after .tandemignore: a later ! line re-includes", async () => {
    await writeFile(at(".tandemignore"), "plans.md\nnotes/\n");
    await writeFile(at(".clineignore"), "!plans.md\nlegacy/\n");
    const c = await loaded();
    expect(c.activeFiles).toEqual([".tandemignore", ".clineignore"]);
    expect(c.isIgnored(at("plans.md"))).toBe(false);
    expect(c.isIgnored(at("legacy", "a.ts"))).toBe(true);
    expect(c.isIgnored(at("notes", "a.md"))).toBe(true);
    expect(c.ignoredBy(at("notes", "a.md"))).toBe(".tandemignore");
    expect(c.ignoredBy(at("legacy", "a.ts"))).toBe(".clineignore");
    expect(c.ignoredBy(at("plans.md"))).toBeUndefined();
    expect(c.ignoredBy(at("other.md"))).toBeUndefined();
  });

  it("names the file for a marked folder, a folder-only rule and a path reached through a link", async () => {
    await writeFile(at(".clineignore"), "build/\n");
    await mkdir(at("build"));
    await symlink("build", at("out"));
    const c = await loaded();
    expect(c.ignoredBy(`${at("build")}/`)).toBe(".clineignore");
    expect(c.ignoredBy(at("build"))).toBe(".clineignore");
    expect(c.ignoredBy(at("out", "a.js")), "a link into the ignored folder").toBe(".clineignore");
    expect(c.ignoredBy(root)).toBeUndefined();
    expect(c.ignoredBy(path.join(path.dirname(root), "build", "x"))).toBeUndefined();
  });

  it("matches a folder-only rule against a real folder only, or a path marked as one", async () => {
    await writeFile(at(".tandemignore"), "out/\n");
    await mkdir(at("out"));
    await writeFile(at("file-out"), "");
    await mkdir(at("sub"));
    await writeFile(at("sub", "out"), "a file named out");
    const c = await loaded();
    expect(c.isIgnored(at("out"))).toBe(true);
    expect(c.isIgnored(at("out", "a.js"))).toBe(true);
    expect(c.isIgnored(`${at("sub", "out")}/`), "marked as a folder").toBe(true);
    expect(c.isIgnored(at("sub", "out")), "a file of that name").toBe(false);
    expect(c.isIgnored(at("missing", "out")), "not there: no folder").toBe(false);
  });

  it("refuses secret-looking files anywhere unless they are allowed, but not a folder named like one", async () => {
    const strict = await loaded();
    expect(strict.isIgnored(at(".env"))).toBe(true);
    expect(strict.isIgnored(path.join(path.dirname(root), "id_rsa"))).toBe(true);
    expect(strict.isIgnored(`${at(".env")}/`)).toBe(false);
    expect(strict.ignoredBy(at(".env")), "no file's rule refuses it").toBeUndefined();
    const relaxed = await loaded({ allowSecretFiles: true });
    expect(relaxed.isIgnored(at(".env"))).toBe(false);
  });

  it("judges a link by where it lands: a link to a secret or into an ignored folder is refused", async () => {
    await writeFile(at(".tandemignore"), "/private/\n");
    await mkdir(at("private"));
    await writeFile(at(".env"), "TOKEN=1");
    await symlink(".env", at("notes"));
    await symlink("private", at("pub"));
    await writeFile(at("readme.md"), "");
    await symlink("readme.md", at("docs"));
    const c = await loaded();
    expect(c.isIgnored(at("notes"))).toBe(true);
    expect(c.isIgnored(at("pub", "keys.txt"))).toBe(true);
    expect(c.isIgnored(`${at("pub")}/`)).toBe(true);
    expect(c.isIgnored(at("docs"))).toBe(false);
  });

  it("reports no problems and warns of none for well-formed files", async () => {
    await writeFile(at(".tandemignore"), "[z-a\n\\\n!\nreal.txt\n");
    const warnings: string[] = [];
    const c = await loaded({ onWarning: (w) => warnings.push(w) });
    expect(c.problems).toEqual([]);
    expect(warnings).toEqual([]);
    expect(c.isIgnored(at("real.txt"))).toBe(true);
  });

  it("ignores nothing by rule before its first load, and a later reload wins over an earlier one", async () => {
    await writeFile(at(".tandemignore"), "a.txt\n");
    const c = new IgnoreController(root);
    expect(c.isIgnored(at("a.txt"))).toBe(false);
    expect(c.ignoredBy(at("a.txt"))).toBeUndefined();
    expect(c.activeFiles).toEqual([]);
    expect(c.problems).toEqual([]);
    const first = c.reload();
    await writeFile(at(".tandemignore"), "b.txt\n");
    const second = c.reload();
    await first;
    expect(c.isIgnored(at("b.txt")), "the first resolves once the newer rules are in force").toBe(true);
    await second;
    expect(c.isIgnored(at("a.txt"))).toBe(false);
  });

  it("judges a path it cannot resolve (a link loop) as named, without failing", async () => {
    await writeFile(at(".tandemignore"), "loop\n");
    await symlink("loop", at("loop"));
    await symlink("round-b", at("round-a"));
    await symlink("round-a", at("round-b"));
    const c = await loaded();
    expect(c.isIgnored(at("loop"))).toBe(true);
    expect(c.isIgnored(at("round-a"))).toBe(false);
    expect(c.ignoredBy(at("loop"))).toBe(".tandemignore");
    expect(realOrSelf(at("round-a"))).toBe(at("round-a"));
  });

  it("is created with its rules already loaded", async () => {
    await writeFile(at(".tandemignore"), "secret.txt\n");
    const c = await IgnoreController.create(root);
    try {
      expect(c.activeFiles).toEqual([".tandemignore"]);
      expect(c.isIgnored(at("secret.txt"))).toBe(true);
    } finally {
      c.dispose();
    }
  });
});
