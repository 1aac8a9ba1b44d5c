/**
 * Bash brace expansion over a word's parts: `a{b,c}d` gives `abd acd`, nested groups too. Only
 * unquoted text takes part; quoted text, `$VAR` and substitutions are carried along whole.
 * Sequences (`{1..9}`) are left as written: they never spell a path the policy looks for.
 */
import type { WordPart } from "./shell-script";

/** Past this many variants the word is treated as unknowable. */
const MAX_VARIANTS = 64;

type Token = { readonly ch: string } | { readonly part: WordPart };

/** The expanded variants, or null when there would be more than MAX_VARIANTS. */
export function expandBraces(parts: readonly WordPart[]): WordPart[][] | null {
  const tokens: Token[] = parts.flatMap((part): Token[] =>
    part.kind === "text" && !part.quoted ? [...part.value].map((ch) => ({ ch })) : [{ part }],
  );
  if (!tokens.some((t) => "ch" in t && t.ch === "{")) return [[...parts]];
  const variants = expand(tokens);
  return variants === null ? null : variants.map(toParts);
}

function expand(tokens: readonly Token[]): Token[][] | null {
  const group = firstGroup(tokens);
  if (group === null) return [[...tokens]];
  const prefix = tokens.slice(0, group.open);
  const suffix = tokens.slice(group.close + 1);
  const out: Token[][] = [];
  for (const alternative of group.alternatives) {
    const expanded = expand([...prefix, ...alternative, ...suffix]);
    if (expanded === null) return null;
    out.push(...expanded);
    if (out.length > MAX_VARIANTS) return null;
  }
  return out;
}

/** The first `{…,…}` with a matching `}` and a comma at its own depth. */
function firstGroup(tokens: readonly Token[]): { open: number; close: number; alternatives: Token[][] } | null {
  for (let open = 0; open < tokens.length; open++) {
    if (charAt(tokens, open) !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < tokens.length; i++) {
      const ch = charAt(tokens, i);
      if (ch === "{") depth++;
      else if (ch === "," && depth === 0) commas.push(i);
      else if (ch === "}" && depth-- === 0) {
        if (commas.length === 0) break;
        const bounds = [open, ...commas, i];
        const alternatives = bounds.slice(1).map((end, k) => tokens.slice((bounds[k] as number) + 1, end));
        return { open, close: i, alternatives };
      }
    }
  }
  return null;
}

function charAt(tokens: readonly Token[], index: number): string | null {
  const token = tokens[index];
  return token !== undefined && "ch" in token ? token.ch : null;
}

function toParts(tokens: readonly Token[]): WordPart[] {
  const parts: WordPart[] = [];
  let plain = "";
  for (const token of tokens) {
    if ("ch" in token) {
      plain += token.ch;
      continue;
    }
    if (plain) parts.push({ kind: "text", value: plain, quoted: false });
    plain = "";
    parts.push(token.part);
  }
  if (plain || parts.length === 0) parts.push({ kind: "text", value: plain, quoted: false });
  return parts;
}
