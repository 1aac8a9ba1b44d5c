/** file_pattern → the globs both engines use: `*.{ts,tsx}` becomes `*.ts` and `*.tsx`. */
import { ToolError } from "./types";

const MAX_EXPANSIONS = 64;

export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open === -1) {
    if (pattern.includes("}")) throw badPattern(pattern, 'a "}" without its "{"');
    return [pattern];
  }
  const close = matchingBrace(pattern, open);
  if (close === -1) throw badPattern(pattern, 'a "{" without its "}"');
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const expanded = splitTopLevel(pattern.slice(open + 1, close)).flatMap((option) => expandBraces(head + option + tail));
  if (expanded.length > MAX_EXPANSIONS) throw badPattern(pattern, `more than ${MAX_EXPANSIONS} alternatives`);
  return expanded;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Splits `a,{b,c},d` at the commas outside nested braces. */
function splitTopLevel(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "{") depth++;
    else if (inner[i] === "}") depth--;
    else if (inner[i] === "," && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

function badPattern(pattern: string, why: string): ToolError {
  return new ToolError("invalid_param", `file_pattern "${pattern}" has ${why}. Use a glob such as *.ts or *.{ts,tsx}.`);
}
