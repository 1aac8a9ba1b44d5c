/** Finds the definitions in a parsed file, as the source lines that introduce them. */
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "./languages";

export interface Definition {
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/** Deeper than any sane nesting of classes and namespaces; stops a pathological file. */
const MAX_DEPTH = 40;
const MAX_LINE_CHARS = 200;

export function findDefinitions(root: Node, spec: LanguageSpec, sourceLines: readonly string[]): Definition[] {
  const rows = new Set<number>();
  walk(root, spec, rows, 0);
  return [...rows]
    .sort((a, b) => a - b)
    .map((row) => ({ line: row + 1, text: clip((sourceLines[row] ?? "").trimEnd()) }));
}

function walk(node: Node, spec: LanguageSpec, rows: Set<number>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const child of node.namedChildren) {
    const rule = spec.definitions[child.type];
    if (rule === true || (rule !== undefined && rule(child))) {
      rows.add(headlineRow(child));
      if (spec.nesting.has(child.type)) walk(child, spec, rows, depth + 1);
    } else if (spec.containers.has(child.type)) {
      walk(child, spec, rows, depth + 1);
    }
  }
}

/**
 * The row that names the definition: where its name is (so a Java annotation or a C return
 * type on the line above does not hide it), else where it starts.
 */
function headlineRow(node: Node): number {
  const named = node.childForFieldName("name") ?? node.childForFieldName("declarator") ?? node;
  return named.startPosition.row;
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}
