/**
 * Loads web-tree-sitter and the grammars on first use only (activation stays cheap) and keeps
 * them: a grammar is read and compiled once per process.
 */
import { readFile } from "node:fs/promises";
import type * as TreeSitterModule from "web-tree-sitter";
import type { Language, Parser } from "web-tree-sitter";
import type { LanguageSpec } from "./languages";
import { resolveWasmFile } from "./wasm-files";

type TreeSitter = typeof TreeSitterModule;

let runtime: Promise<TreeSitter> | undefined;
const grammars = new Map<string, Promise<Language>>();

/** A fresh parser for the language; the caller deletes it when done (it holds wasm memory). */
export async function createParser(spec: LanguageSpec): Promise<Parser> {
  const treeSitter = await loadRuntime();
  const language = await loadGrammar(treeSitter, spec.grammar);
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  return parser;
}

function loadRuntime(): Promise<TreeSitter> {
  runtime ??= (async () => {
    const treeSitter = await import("web-tree-sitter");
    const wasm = resolveWasmFile("web-tree-sitter.wasm");
    await treeSitter.Parser.init({ locateFile: () => wasm });
    return treeSitter;
  })();
  // A failed load is not cached: the next call tries again (and reports its own error).
  runtime.catch(() => (runtime = undefined));
  return runtime;
}

function loadGrammar(treeSitter: TreeSitter, grammar: string): Promise<Language> {
  let language = grammars.get(grammar);
  if (!language) {
    language = readFile(resolveWasmFile(`tree-sitter-${grammar}.wasm`)).then((bytes) => treeSitter.Language.load(bytes));
    language.catch(() => grammars.delete(grammar));
    grammars.set(grammar, language);
  }
  return language;
}
