import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { guardFileReason } from "./guard-files";

const root = path.resolve("/work/project");
const at = (rel: string) => path.join(root, rel);

describe("guardFileReason", () => {
  it.each([".tandemignore", ".clineignore", "sub/.tandemignore", ".git/hooks/pre-commit", ".git/config", ".git", "vendor/lib/.git/config", ".vscode/tasks.json", ".vscode", ".tandem/rules.md"])(
    "%s is a guard file",
    (rel) => expect(guardFileReason(root, at(rel))).toBeDefined(),
  );
  it.each(["src/app.ts", ".gitignore", ".github/workflows/ci.yml", "docs/.vscode-notes.md", "tandemignore", "."])("%s is not", (rel) => {
    expect(guardFileReason(root, at(rel))).toBeUndefined();
  });
  it("leaves paths outside the workspace to the 'externally' switches", () => {
    expect(guardFileReason(root, path.resolve("/etc/.git/config"))).toBeUndefined();
  });
});
