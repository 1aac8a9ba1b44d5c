/** Whether a loop can never end on its own: `while :`, `while true`, `until false`, `for ((;;))`. */
import { child, children, isSet, nodeType, text, type ShNode } from "./sh-nodes";

const ALWAYS_TRUE = new Set(["true", ":", "/bin/true", "/usr/bin/true", "[ 1 ]", "test 1", "((1))"]);
const ALWAYS_FALSE = new Set(["false", "/bin/false", "/usr/bin/false", "! true", "! :"]);

export function isEndlessLoop(loop: ShNode): boolean {
  if (nodeType(loop) === "ForClause") {
    const header = child(loop, "Loop");
    return header !== null && nodeType(header) === "CStyleLoop" && !isSet(header, "Cond");
  }
  const cond = children(loop, "Cond");
  if (cond.length !== 1) return false;
  const condition = plainText(cond[0] as ShNode);
  return (loop.Until === true ? ALWAYS_FALSE : ALWAYS_TRUE).has(condition);
}

/** The statement as literal words joined by one space ("" when it is more than literal words). */
function plainText(stmt: ShNode): string {
  const cmd = child(stmt, "Cmd");
  if (cmd === null) return "";
  const type = nodeType(cmd);
  if (type === "ArithmCmd") return arithmeticText(cmd);
  if (type !== "CallExpr") return "";
  const words = children(cmd, "Args").map((w) => {
    const parts = children(w, "Parts");
    return parts.length === 1 && parts[0] && nodeType(parts[0]) === "Lit" ? text(parts[0], "Value") : null;
  });
  if (words.some((w) => w === null)) return "";
  return `${stmt.Negated === true ? "! " : ""}${words.join(" ")}`;
}

function arithmeticText(cmd: ShNode): string {
  const x = child(cmd, "X");
  return x && nodeType(x) === "Word" && children(x, "Parts").length === 1 && text(children(x, "Parts")[0] as ShNode, "Value") === "1" ? "((1))" : "";
}
