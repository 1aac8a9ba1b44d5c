/** The variables a piece of shell code may assign, found by walking its syntax tree. */
import { child, children, expansionOperator, nodeType, text, walk, type ShNode } from "./sh-nodes";

/** Commands that assign the variables they name, or (eval, source) any variable at all. */
const ASSIGNING_COMMANDS = new Set(["read", "mapfile", "readarray", "getopts", "printf", "eval", "source", ".", "let", "declare", "typeset", "local", "export", "readonly"]);

export interface AssignedNames {
  readonly names: Set<string>;
  /** True when the code may assign names the walk cannot tell (`eval`, `read "$name"`). */
  any: boolean;
}

export function assignmentNames(root: ShNode): AssignedNames {
  const found: AssignedNames = { names: new Set(), any: false };
  walk(root, (node) => {
    const type = nodeType(node);
    const name = type === "Assign" || type === "WordIter" ? child(node, "Name") : null;
    if (name) found.names.add(text(name, "Value"));
    const assigning = type === "ParamExp" && (expansionOperator(node) === "=" || expansionOperator(node) === ":=");
    const param = assigning ? child(node, "Param") : null;
    if (param) found.names.add(text(param, "Value"));
    if (type === "CallExpr") noteCall(node, found);
    return true;
  });
  return found;
}

function noteCall(call: ShNode, found: AssignedNames): void {
  const words = children(call, "Args").map(literalWord);
  const [name, ...rest] = words;
  if (name === undefined) return;
  if (name === null) {
    found.any = true; // `$cmd x=1`: the command could be anything
    return;
  }
  if (!ASSIGNING_COMMANDS.has(name)) return;
  if (name === "eval" || name === "source" || name === ".") found.any = true;
  for (const word of rest) {
    if (word === null) found.any = true;
    else if (/^[A-Za-z_]\w*$/.test(word)) found.names.add(word);
  }
}

/** A word's text when it is one plain literal, else null. */
function literalWord(word: ShNode): string | null {
  const parts = children(word, "Parts");
  const only = parts.length === 1 ? parts[0] : undefined;
  return only && nodeType(only) === "Lit" ? text(only, "Value") : null;
}
