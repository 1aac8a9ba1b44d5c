/** The VS Code EditorHost's lists, from plain stand-ins for VS Code's URIs and diagnostics. */
import { describe, expect, it } from "vitest";
import { activeFirst, filePaths, problemsOf, type DiagnosticLike } from "../../src/host/vscode/editor-lists";

const file = (fsPath: string) => ({ scheme: "file", fsPath });
const other = (scheme: string, fsPath: string) => ({ scheme, fsPath });
const SEVERITIES = { error: 0, warning: 1 };
const diagnostic = (severity: number, line: number, message: string, extra: Partial<DiagnosticLike> = {}): DiagnosticLike => ({ severity, message, range: { start: { line } }, ...extra });

describe("editor lists", () => {
  it("names files on disk once each, leaving out other schemes", () => {
    expect(filePaths([file("/w/a.ts"), other("untitled", "Untitled-1"), other("tandem-proposal", "/w/b.ts"), file("/w/a.ts"), undefined, file("/w/c.ts")])).toEqual(["/w/a.ts", "/w/c.ts"]);
  });

  it("puts the active editor's file first", () => {
    expect(activeFirst(file("/w/b.ts"), [file("/w/a.ts"), file("/w/b.ts")])).toEqual(["/w/b.ts", "/w/a.ts"]);
    expect(activeFirst(undefined, [file("/w/a.ts")])).toEqual(["/w/a.ts"]);
  });

  it("keeps errors and warnings of files on disk, errors first, each file's by line", () => {
    const problems = problemsOf(
      [
        [file("/w/a.ts"), [diagnostic(1, 9, "unused", { source: "ts", code: 6133 }), diagnostic(2, 1, "info only"), diagnostic(0, 4, "broken", { source: "eslint", code: { value: "no-undef" } })]],
        [other("git", "/w/a.ts"), [diagnostic(0, 1, "not a file")]],
        [file("/w/b.ts"), [diagnostic(0, 2, "also broken"), diagnostic(3, 0, "hint")]],
      ],
      SEVERITIES,
    );
    expect(problems).toEqual([
      { path: "/w/a.ts", line: 4, severity: "error", message: "broken", source: "eslint", code: "no-undef" },
      { path: "/w/b.ts", line: 2, severity: "error", message: "also broken" },
      { path: "/w/a.ts", line: 9, severity: "warning", message: "unused", source: "ts", code: "6133" },
    ]);
  });
});
