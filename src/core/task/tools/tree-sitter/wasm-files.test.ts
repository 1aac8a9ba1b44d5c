import { existsSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages";
import { resolveWasmDir, resolveWasmFile, TREE_SITTER_WASM_FILES } from "./wasm-files";

describe("tree-sitter .wasm files", () => {
  it("lists the runtime and a grammar for every supported language, and nothing else", () => {
    const expected = ["web-tree-sitter.wasm", ...LANGUAGES.map((l) => `tree-sitter-${l.grammar}.wasm`)];
    expect(TREE_SITTER_WASM_FILES.map((w) => w.file).sort()).toEqual([...new Set(expected)].sort());
  });

  it("finds each file in node_modules when no bundled copy exists", () => {
    expect(resolveWasmDir()).toBeUndefined();
    for (const { file, module } of TREE_SITTER_WASM_FILES) {
      const found = resolveWasmFile(file);
      expect(found.endsWith(path.join("node_modules", module))).toBe(true);
      expect(existsSync(found)).toBe(true);
    }
  });

  it("refuses a file that is not on the list", () => {
    expect(() => resolveWasmFile("tree-sitter-cobol.wasm")).toThrow(/not one of the tree-sitter files/);
  });
});
