import { mkdir, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/tool-context";
import { guardedChangeNote, guardFileReason } from "./guard-files";

const root = path.resolve("/work/project");
const at = (rel: string) => path.join(root, rel);

describe("guardFileReason", () => {
  it.each([".tandemignore", ".clineignore", "sub/.tandemignore", ".git/hooks/pre-commit", ".git/config", ".git", "vendor/lib/.git/config", ".vscode/tasks.json", ".vscode", ".tandem/rules.md", ".clinerules/hooks/PostToolUse", ".clinerules/hooks", ".clinerules/workflows/release.md", ".clinerules/skills/x/SKILL.md", ".claude/skills/x/SKILL.md"])(
    "%s is a guard file",
    (rel) => expect(guardFileReason(root, at(rel))).toBeDefined(),
  );
  it.each(["src/app.ts", ".gitignore", ".github/workflows/ci.yml", "docs/.vscode-notes.md", "tandemignore", ".", ".clinerules/rules.md", ".clinerules", "docs/.clinerules/hooks-notes.md", ".claude/settings.json"])("%s is not", (rel) => {
    expect(guardFileReason(root, at(rel))).toBeUndefined();
  });
  it("leaves paths outside the workspace to the 'externally' switches", () => {
    expect(guardFileReason(root, path.resolve("/etc/.git/config"))).toBeUndefined();
  });
});

describe("guardedChangeNote", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir("tandem-guard-"));
    await mkdir(path.join(dir, "ws", ".git"), { recursive: true });
    await writeFile(path.join(dir, "ws", ".git", "config"), "[core]\n");
  });
  afterEach(() => cleanup());
  const ws = () => path.join(dir, "ws");

  it("says why, naming the file as it lies in the workspace", () => {
    expect(guardedChangeNote([ws()], [path.join(ws(), ".tandemignore")])).toBe(
      ".tandemignore is one of the guard's own files: .tandemignore decides what Tandem may not read. Tandem always asks before changing it, even in YOLO mode.",
    );
    expect(guardedChangeNote([ws()], [path.join(ws(), "src", "a.ts")])).toBeUndefined();
  });

  it("judges a link as its target, even when only the named path is passed", async () => {
    await symlink(path.join(".git", "config"), path.join(ws(), "x"));
    expect(guardedChangeNote([ws()], [path.join(ws(), "x")])).toMatch(/^\.git\/config is one of the guard's own files: files under \.git\//);
  });

  it("judges a path as named too: a .vscode folder that links elsewhere is still .vscode to the editor", async () => {
    await mkdir(path.join(dir, "elsewhere"));
    await symlink(path.join(dir, "elsewhere"), path.join(ws(), ".vscode"));
    expect(guardedChangeNote([ws()], [path.join(ws(), ".vscode", "tasks.json")])).toMatch(/^\.vscode\/tasks\.json is one of the guard's own files/);
  });

  it("guards what the root's own ignore file or guard folder links to", async () => {
    await writeFile(path.join(ws(), ".gitignore"), "dist/\n");
    await symlink(".gitignore", path.join(ws(), ".clineignore"));
    await mkdir(path.join(ws(), "config", "editor"), { recursive: true });
    await symlink(path.join("config", "editor"), path.join(ws(), ".vscode"));
    expect(guardedChangeNote([ws()], [path.join(ws(), ".gitignore")])).toMatch(/^\.clineignore is one of the guard's own files: \.clineignore decides/);
    expect(guardedChangeNote([ws()], [path.join(ws(), "config", "editor", "tasks.json")])).toMatch(/^\.vscode\/tasks\.json is one of the guard's own files/);
    expect(guardedChangeNote([ws()], [path.join(ws(), "config", "other.json")])).toBeUndefined();
  });

  it("compares real with real when the workspace root is reached through a link", async () => {
    await symlink(ws(), path.join(dir, "ws-link"));
    expect(guardedChangeNote([path.join(dir, "ws-link")], [path.join(ws(), ".git", "config")])).toBeDefined();
  });
});
