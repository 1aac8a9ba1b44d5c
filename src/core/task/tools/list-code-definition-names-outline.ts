/** The outline of one source file: parse it with tree-sitter and pick out its definitions. */
import { readFile } from "node:fs/promises";
import { findDefinitions, type Definition } from "./tree-sitter/definitions";
import type { LanguageSpec } from "./tree-sitter/languages";
import { createParser } from "./tree-sitter/loader";

export async function outlineFile(absolute: string, spec: LanguageSpec): Promise<Definition[]> {
  const source = await readFile(absolute, "utf8");
  const parser = await createParser(spec);
  try {
    const tree = parser.parse(source);
    if (!tree) throw new Error(`tree-sitter could not parse ${absolute}`);
    try {
      return findDefinitions(tree.rootNode, spec, source.split(/\r?\n/));
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** `  12 | export class Foo {` lines under the file's name. */
export function formatOutline(shownPath: string, definitions: readonly Definition[]): string {
  const width = Math.max(...definitions.map((d) => String(d.line).length));
  return [shownPath, ...definitions.map((d) => `${String(d.line).padStart(width)} | ${d.text}`)].join("\n");
}
