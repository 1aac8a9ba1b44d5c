/**
 * Turns a parsed shell word into the arguments it becomes: quote removal, then brace expansion as
 * Bash does it (so `{rm,-rf,/}` is three arguments). Anything only known at run time is kept as a
 * "dynamic" part rather than guessed.
 */
import { expandBraces } from "./brace-expansion";
import type { ShellArg, WordPart } from "./shell-script";
import { child, children, flag, isSet, nodeType, text, type ShNode } from "./sh-nodes";
import type { SourceText } from "./source-text";

export function convertWord(word: ShNode, source: SourceText): ShellArg[] {
  const raw = source.of(word);
  const parts = children(word, "Parts").flatMap((p) => convertPart(p, source));
  const variants = expandBraces(parts);
  if (variants === null) return [{ raw, parts: [{ kind: "dynamic" }] }];
  return variants.map((variant) => ({ raw, parts: variant }));
}

/** An assignment's value: no brace expansion and no word splitting, as in Bash. */
export function convertValue(word: ShNode, source: SourceText): ShellArg {
  return { raw: source.of(word), parts: children(word, "Parts").flatMap((p) => convertPart(p, source)) };
}

/** A here-document body: like a double-quoted string, never brace-expanded. */
export function convertHeredoc(word: ShNode, source: SourceText): ShellArg {
  const parts = children(word, "Parts").flatMap((p) => (nodeType(p) === "Lit" ? [doubleQuotedText(text(p, "Value"))] : convertPart(p, source, true)));
  return { raw: source.of(word), parts };
}

function convertPart(part: ShNode, source: SourceText, inDouble = false): WordPart[] {
  switch (nodeType(part)) {
    case "Lit":
      return unquotedText(text(part, "Value"));
    case "SglQuoted": {
      const value = text(part, "Value");
      return [{ kind: "text", value: flag(part, "Dollar") ? decodeAnsiC(value) : value, quoted: true }];
    }
    case "DblQuoted":
      return children(part, "Parts").flatMap((inner) =>
        nodeType(inner) === "Lit" ? [doubleQuotedText(text(inner, "Value"))] : convertPart(inner, source, true),
      );
    case "ParamExp":
      return [paramPart(part, inDouble)];
    case "ExtGlob":
      // `@(a|b)` and friends: a pattern, kept as unquoted text so it counts as a glob.
      return [{ kind: "text", value: source.of(part), quoted: false }];
    default:
      // CmdSubst, ProcSubst, ArithmExp and anything newer.
      return [{ kind: "dynamic" }];
  }
}

function paramPart(node: ShNode, quoted: boolean): WordPart {
  const param = child(node, "Param");
  const name = param ? text(param, "Value") : "";
  const operators = ["Exp", "Index", "Slice", "Repl"].some((field) => isSet(node, field));
  const plain = !operators && !flag(node, "Length") && !flag(node, "Excl") && !flag(node, "Width") && !node.Names;
  return { kind: "param", name, plain, quoted };
}

/** Unquoted text: a backslash quotes the next character, backslash-newline disappears. */
function unquotedText(value: string): WordPart[] {
  const parts: WordPart[] = [];
  let plain = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch !== "\\" || i + 1 >= value.length) {
      plain += ch;
      continue;
    }
    const next = value[++i] as string;
    if (next === "\n") continue;
    if (plain) parts.push({ kind: "text", value: plain, quoted: false });
    plain = "";
    parts.push({ kind: "text", value: next, quoted: true });
  }
  if (plain || parts.length === 0) parts.push({ kind: "text", value: plain, quoted: false });
  return parts;
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
function doubleQuotedText(value: string): WordPart {
  return { kind: "text", value: value.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c)), quoted: true };
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
  "\\": "\\", "'": "'", '"': '"', "?": "?",
};

/** `$'...'` strings: enough of Bash's escapes that `$'\x72m'` reads as `rm`. */
function decodeAnsiC(value: string): string {
  return value.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, esc: string) => {
    const kind = esc[0] ?? "";
    if (kind === "x" || kind === "u" || kind === "U") {
      const code = parseInt(esc.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    if (/[0-7]/.test(kind)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
    if (kind === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
    return ANSI_C_ESCAPES[esc] ?? whole;
  });
}
