import { mkdir, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/tool-context";
import { guardedChangeNote } from "./guard-files";
import { WorkspaceGuard } from "./workspace-guard";

let dir: string;
let a: string;
let b: string;
let guard: WorkspaceGuard;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("tandem-guard-roots-"));
  a = path.join(dir, "a");
  b = path.join(dir, "b");
  await mkdir(a);
  await mkdir(b);
  await writeFile(path.join(a, ".tandemignore"), "*.secret\n");
  await writeFile(path.join(b, ".clineignore"), "vault/\n");
  await mkdir(path.join(b, "vault"));
  guard = await WorkspaceGuard.create([a, b]);
});
afterEach(async () => {
  guard.dispose();
  await cleanup();
});

describe("WorkspaceGuard", () => {
  it("applies each folder's ignore file to its own files only, and secret names in every folder", () => {
    expect(guard.isIgnored(path.join(a, "x.secret"))).toBe(true);
    expect(guard.isIgnored(path.join(b, "x.secret"))).toBe(false);
    expect(guard.isIgnored(path.join(b, "vault", "k.txt"))).toBe(true);
    expect(guard.isIgnored(path.join(a, "vault", "k.txt"))).toBe(false);
    expect(guard.isIgnored(path.join(b, ".env"))).toBe(true);
    expect(guard.isIgnored(path.join(a, ".env"))).toBe(true);
  });

  it("names the ignore file that refuses a path, the one of the folder holding it", () => {
    expect(guard.ignoredBy(path.join(a, "x.secret"))).toBe(".tandemignore");
    expect(guard.ignoredBy(path.join(b, "vault", "k.txt"))).toBe(".clineignore");
    expect(guard.ignoredBy(path.join(b, "x.secret"))).toBeUndefined();
  });

  it("judges a link from one folder into another by where it lands", async () => {
    await symlink(path.join(b, "vault"), path.join(a, "shelf"));
    expect(guard.isIgnored(path.join(a, "shelf", "k.txt"))).toBe(true);
    expect(guard.isIgnored(path.join(a, "shelf/"))).toBe(true);
  });
});

describe("guardedChangeNote with several folders", () => {
  it("guards every folder's own files (.vscode/, .tandem/, ignore files, .git/), not only the primary's", () => {
    expect(guardedChangeNote([a, b], [path.join(b, ".vscode", "tasks.json")])).toMatch(/^\.vscode\/tasks\.json is one of the guard's own files/);
    expect(guardedChangeNote([a, b], [path.join(b, ".clineignore")])).toMatch(/^\.clineignore is one of the guard's own files/);
    expect(guardedChangeNote([a, b], [path.join(b, ".git", "hooks", "pre-commit")])).toBeDefined();
    expect(guardedChangeNote([a], [path.join(b, ".vscode", "tasks.json")])).toBeUndefined();
    expect(guardedChangeNote([a, b], [path.join(b, "src", "x.ts")])).toBeUndefined();
  });
});
