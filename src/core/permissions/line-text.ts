/**
 * What the command line's characters do before any parser sees them. In an interactive shell (a
 * terminal) a carriage return ends the line, so `npm ci\rrm -rf ~` is two commands; other
 * control characters are editing keys (Ctrl-A jumps to the start, Ctrl-U erases); `!!`, `!rm`,
 * `^old^new` bring back earlier commands. Each verified in bash 5.2 (`bash -i`).
 */

/**
 * Read as line ends: the carriage return ends the line in a terminal; U+2028, U+2029 and U+0085
 * (NEL) are line breaks to every renderer, so the person reading them sees separate lines.
 * Vertical tab and form feed are not here: a shell does not end a line at them (readline reads
 * them as Ctrl-K and Ctrl-L), so they count as control characters.
 */
const LINE_BREAKS = /\r\n?|[\u2028\u2029\u0085]/g;
/** C0 controls but tab and newline, DEL, and the C1 controls (8-bit escape sequences). */
function firstControl(text: string): string | null {
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if ((code < 0x20 && ch !== "\t" && ch !== "\n") || (code >= 0x7f && code <= 0x9f)) return ch;
  }
  return null;
}
/** Characters that reorder how text is shown, so the line looks unlike what runs. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

export interface LineText {
  /** The line with every line break as `\n`: what the policy parses. */
  readonly text: string;
  /** Why a terminal would not run the line as written, or null. */
  readonly hidden: string | null;
}

export function readLineText(command: string, interactive: boolean): LineText {
  const text = command.replace(LINE_BREAKS, "\n");
  return { text, hidden: hiddenEffect(text, interactive) };
}

function hiddenEffect(text: string, interactive: boolean): string | null {
  const control = firstControl(text);
  if (control !== null) return `it contains the control character ${codePoint(control)}, which a terminal reads as a key, not as text`;
  const bidi = BIDI.exec(text);
  if (bidi) return `it contains ${codePoint(bidi[0])}, which makes the line look different from what runs`;
  if (!interactive) return null;
  const history = historyExpansion(text);
  return history === null ? null : `\`${history}\` brings back an earlier command line in an interactive shell (history expansion)`;
}

function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The first history expansion bash would make, or null: `!` outside single quotes that is not
 * escaped and not `!=`, `! `, `$!`, `${!`, `[!…]` or `!"` at the end of a double-quoted string;
 * `^` at the start of a line.
 */
export function historyExpansion(text: string): string | null {
  let quote: "'" | '"' | "$'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const atLineStart = i === 0 || text[i - 1] === "\n";
    if (quote === null && atLineStart && ch === "^") return text.slice(i).split("\n")[0] ?? "^";
    if (ch === "\\" && quote !== "'") {
      i++;
      continue;
    }
    if (quote === "'" || quote === "$'") {
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === '"') quote = quote === '"' ? null : '"';
    else if (ch === "'" && quote === null) quote = text[i - 1] === "$" ? "$'" : "'";
    else if (ch === "!" && expands(text, i, quote === '"')) return /^!(\S*)/.exec(text.slice(i))?.[0] ?? "!";
  }
  return null;
}

function expands(text: string, at: number, inDouble: boolean): boolean {
  const next = text[at + 1];
  if (next === undefined || /[ \t\n=(]/.test(next)) return false;
  if (inDouble && next === '"') return false;
  const before = text[at - 1];
  if (before === "$") return false;
  if (before === "{" && text[at - 2] === "$") return false;
  return !(before === "[" && text.indexOf("]", at) !== -1);
}
