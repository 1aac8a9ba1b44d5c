import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeToolContext, runTool, tempDir } from "../../../../test/support/tool-context";
import { listCodeDefinitionNamesTool, MAX_FILES_SCANNED } from "./list-code-definition-names";
import { ToolError, type ToolResult } from "./types";

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir("tandem-defs-"));
});
afterEach(() => cleanup());

async function files(entries: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(entries)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
}

async function outline(target: string, ignored?: (p: string) => boolean): Promise<string> {
  const { ctx } = fakeToolContext(root, { ignored, ignoredBy: () => ".tandemignore" });
  const result: ToolResult = await runTool(listCodeDefinitionNamesTool, { path: target }, ctx);
  if (result.kind !== "ok" || typeof result.content !== "string") throw new Error(`unexpected ${JSON.stringify(result)}`);
  return result.content;
}

async function outlineError(target: string, ignored?: (p: string) => boolean): Promise<ToolError> {
  const error: unknown = await outline(target, ignored).then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

const SOURCES: Record<string, string> = {
  "ts/shapes.ts": `import { x } from "y";

export class Shape<T> extends Base implements Drawable {
  private size = 1;
  onClick = () => {};
  draw(ctx: Canvas): void {
    function helper() {}
  }
}
export interface Drawable { draw(ctx: Canvas): void; }
export type Id = string;
export enum Kind { A, B }
export const area = (s: Shape<number>) => 0;
const limit = 10;
export default function main() {}
namespace Geometry { export function inner() {} }
`,
  "py/app.py": `import os

@dataclass
class Config:
    debug: bool = False

    def load(self):
        def nested():
            pass

    @property
    def name(self):
        return "x"

def main():
    pass

if __name__ == "__main__":
    main()
`,
  "go/main.go": `package main

type Server struct {
	port int
}

type (
	Handler interface{ Serve() }
)

func (s *Server) Start() error {
	return nil
}

func main() {
	go func() {}()
}
`,
  "rs/lib.rs": `use std::fmt;

#[derive(Debug)]
pub struct Point { x: i32 }

pub trait Area {
    fn area(&self) -> f64;
}

impl Area for Point {
    fn area(&self) -> f64 {
        fn helper() {}
        0.0
    }
}

pub enum Color { Red }

pub fn run() {}
`,
  "java/App.java": `package app;

@Service
public class App {
    private int count;

    public App() {}

    @Override
    public String toString() {
        return "";
    }

    interface Listener { void onEvent(); }
}
`,
  "c/util.c": `#include <stdio.h>

struct point { int x; };

static int
add(int a, int b)
{
    return a + b;
}

int main(void) { return add(1, 2); }
`,
  "cpp/widget.hpp": `#ifndef WIDGET_HPP
#define WIDGET_HPP
namespace ui {
class Widget {
 public:
  Widget();
  void paint() const;
  int width() const { return w_; }
 private:
  int w_;
};
template <typename T> T clamp(T v) { return v; }
}
#endif
`,
  "js/index.mjs": `export class Store { get(key) { return key; } }
export function create() {}
export const handler = async (event) => event;
`,
};

describe("list_code_definition_names", () => {
  it("outlines TypeScript: classes, members, interfaces, types, enums, function-valued constants, namespaces", async () => {
    await files(SOURCES);
    expect(await outline("ts/shapes.ts")).toBe(
      [
        "ts/shapes.ts",
        " 3 | export class Shape<T> extends Base implements Drawable {",
        " 5 |   onClick = () => {};",
        " 6 |   draw(ctx: Canvas): void {",
        "10 | export interface Drawable { draw(ctx: Canvas): void; }",
        "11 | export type Id = string;",
        "12 | export enum Kind { A, B }",
        "13 | export const area = (s: Shape<number>) => 0;",
        "15 | export default function main() {}",
        "16 | namespace Geometry { export function inner() {} }",
      ].join("\n"),
    );
  });

  it.each([
    ["py/app.py", ["py/app.py", " 4 | class Config:", " 7 |     def load(self):", "12 |     def name(self):", "15 | def main():"]],
    ["go/main.go", ["go/main.go", " 3 | type Server struct {", " 8 | \tHandler interface{ Serve() }", "11 | func (s *Server) Start() error {", "15 | func main() {"]],
    ["rs/lib.rs", ["rs/lib.rs", " 4 | pub struct Point { x: i32 }", " 6 | pub trait Area {", " 7 |     fn area(&self) -> f64;", "10 | impl Area for Point {", "11 |     fn area(&self) -> f64 {", "17 | pub enum Color { Red }", "19 | pub fn run() {}"]],
    ["java/App.java", ["java/App.java", " 4 | public class App {", " 7 |     public App() {}", "10 |     public String toString() {", "14 |     interface Listener { void onEvent(); }"]],
    ["c/util.c", ["c/util.c", " 3 | struct point { int x; };", " 6 | add(int a, int b)", "11 | int main(void) { return add(1, 2); }"]],
    ["cpp/widget.hpp", ["cpp/widget.hpp", " 3 | namespace ui {", " 4 | class Widget {", " 6 |   Widget();", " 7 |   void paint() const;", " 8 |   int width() const { return w_; }", "12 | template <typename T> T clamp(T v) { return v; }"]],
    ["js/index.mjs", ["js/index.mjs", "1 | export class Store { get(key) { return key; } }", "2 | export function create() {}", "3 | export const handler = async (event) => event;"]],
  ])("outlines %s", async (file, expected) => {
    await files(SOURCES);
    expect(await outline(file)).toBe(expected.join("\n"));
  });

  it("outlines the top-level source files of a folder, separated, skipping other files and sub-folders", async () => {
    await files({
      "src/b.py": "def b():\n    pass\n",
      "src/a.ts": "export function a() {}\n",
      "src/notes.md": "# function not_code()\n",
      "src/empty.ts": "const x = 1;\n",
      "src/deeper/c.ts": "export function c() {}\n",
    });
    expect(await outline("src")).toBe("src/a.ts\n1 | export function a() {}\n|----\nsrc/b.py\n1 | def b():");
  });

  it("skips gitignored and ignored files in a folder, and refuses an ignored file", async () => {
    await files({ ".gitignore": "gen.ts\n", "gen.ts": "export function gen() {}\n", "keep.ts": "export function keep() {}\n", "hidden.ts": "export function hidden() {}\n" });
    const ignored = (p: string) => p.endsWith("hidden.ts");
    expect(await outline(".", ignored)).toBe("keep.ts\n1 | export function keep() {}\n\n[Left out 1 file (listed in .tandemignore, or named like a secret file).]");
    const error = await outlineError("hidden.ts", ignored);
    expect(error.reason).toBe("not_allowed");
    expect(error.message).toBe("hidden.ts is ignored by .tandemignore, so tools may not touch it.");
  });

  it(`reads at most ${MAX_FILES_SCANNED} files of a folder and says so`, async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < MAX_FILES_SCANNED + 5; i++) many[`m/f${String(i).padStart(2, "0")}.ts`] = `export function f${i}() {}\n`;
    await files(many);
    const output = await outline("m");
    expect(output.split("|----")).toHaveLength(MAX_FILES_SCANNED);
    expect(output).toContain(`m/f${MAX_FILES_SCANNED - 1}.ts`);
    expect(output).not.toContain(`m/f${MAX_FILES_SCANNED}.ts`);
    expect(output.endsWith(`[Only the first ${MAX_FILES_SCANNED} of ${MAX_FILES_SCANNED + 5} source files were read; outline single files for the rest.]`)).toBe(true);
  });

  it("explains unsupported files, empty results and missing paths", async () => {
    await files({ "notes.txt": "hello", "plain.ts": "const x = 1;\n", "docs/readme.md": "# hi" });
    expect((await outlineError("notes.txt")).message).toMatch(/^notes\.txt is not a source file this tool understands \(it reads \.ts /);
    expect(await outline("plain.ts")).toBe("No definitions found in plain.ts.");
    expect(await outline("docs")).toMatch(/^No source files \(.*\) directly in docs; try one of its sub-folders\.$/);
    expect((await outlineError("missing.ts")).reason).toBe("not_found");
  });

  it("asks for read approval with the outline", async () => {
    await files({ "a.ts": "export function a() {}\n" });
    const { ctx, log } = fakeToolContext(root, { approvals: [{ approved: false }] });
    expect((await runTool(listCodeDefinitionNamesTool, { path: "a.ts" }, ctx)).kind).toBe("rejected");
    expect(log.approvals[0]).toMatchObject({
      category: "read",
      message: { tool: "list_code_definition_names", path: "a.ts", content: "a.ts\n1 | export function a() {}", outsideWorkspace: false },
    });
  });
});
