/**
 * Where the WebAssembly files live at run time. esbuild bundles JavaScript only, so the build
 * copies TREE_SITTER_WASM_FILES into `dist/tree-sitter/`, next to the bundle; in tests and
 * development they are found in node_modules.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import wasmFiles from "./wasm-files.json";

export interface WasmFile {
  /** The file's name in the bundled `tree-sitter/` folder. */
  readonly file: string;
  /** Where it is under node_modules (what the build copies from). */
  readonly module: string;
}

/**
 * The tree-sitter runtime and one grammar per supported language. Kept in JSON so esbuild.mjs
 * reads the same list to copy the files: node_modules/<module> → dist/tree-sitter/<file>.
 */
export const TREE_SITTER_WASM_FILES: readonly WasmFile[] = wasmFiles;

/** The folder of this module; in the bundle, the folder of dist/extension.js or dist/cli.js. */
function moduleFolder(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** The bundled `tree-sitter/` folder next to the running code, if the build put one there. */
export function resolveWasmDir(): string | undefined {
  const bundled = path.join(moduleFolder(), "tree-sitter");
  return existsSync(bundled) ? bundled : undefined;
}

/** Absolute path of one of TREE_SITTER_WASM_FILES: the bundled copy first, then node_modules. */
export function resolveWasmFile(file: string): string {
  const entry = TREE_SITTER_WASM_FILES.find((wasm) => wasm.file === file);
  if (!entry) throw new Error(`${file} is not one of the tree-sitter files Tandem ships.`);
  const bundledDir = resolveWasmDir();
  if (bundledDir && existsSync(path.join(bundledDir, file))) return path.join(bundledDir, file);
  try {
    return createRequire(import.meta.url).resolve(entry.module);
  } catch {
    throw new Error(
      `Cannot find ${file}: it is neither in ${path.join(moduleFolder(), "tree-sitter")} (the build copies it there) nor in node_modules (${entry.module}).`,
    );
  }
}
