/**
 * Turns a ripgrep (Rust regex) pattern into a JavaScript RegExp for the fallback search. The
 * common Rust-only forms are translated; the rare ones are refused with a message saying what
 * to write instead, so the model never gets silently different results.
 */
import { ToolError } from "./types";

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Characters that may follow a backslash with the `u` flag (everything else must be bare). */
const SYNTAX_CHARS = new Set("^$\\.*+?()[]{}|/");

export function toJavaScriptRegExp(pattern: string): RegExp {
  const { flags, rest } = leadingFlags(pattern);
  const translated = new Translator(rest);
  const source = translated.run();
  const allFlags = flags + (translated.needsUnicode ? "u" : "");
  try {
    return new RegExp(source, allFlags);
  } catch (error) {
    throw new ToolError("invalid_param", `The regex is not valid: ${(error as Error).message}`);
  }
}

/** `(?i)`, `(?s)`, `(?m)` at the very start become JavaScript flags. */
function leadingFlags(pattern: string): { flags: string; rest: string } {
  let flags = "";
  let rest = pattern;
  for (let m = /^\(\?([a-zA-Z-]+)\)/.exec(rest); m; m = /^\(\?([a-zA-Z-]+)\)/.exec(rest)) {
    for (const flag of m[1] ?? "") {
      if (!"ism".includes(flag)) unsupported(`the inline flag "${flag}" in (?${m[1]})`, "drop it");
      if (!flags.includes(flag)) flags += flag;
    }
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

function unsupported(what: string, instead: string): never {
  throw new ToolError(
    "invalid_param",
    `The regex uses ${what}, which this search (JavaScript regular expressions; ripgrep is not installed) does not support: ${instead}.`,
  );
}

class Translator {
  needsUnicode = false;
  private out = "";
  private i = 0;
  private inClass = false;

  constructor(private readonly src: string) {}

  run(): string {
    while (this.i < this.src.length) {
      const ch = this.src[this.i] as string;
      if (ch === "\\") this.escape();
      else if (this.inClass) this.classChar(ch);
      else if (ch === "[") this.openClass();
      else if (this.src.startsWith("(?P<", this.i)) this.emit("(?<", 4);
      else if (/^\(\?[a-zA-Z-]+[:)]/.test(this.src.slice(this.i))) unsupported("an inline flag group such as (?i: …) inside the pattern", "put (?i) at the very start instead");
      else this.emit(ch, 1);
    }
    return this.out;
  }

  private emit(text: string, consumed: number): void {
    this.out += text;
    this.i += consumed;
  }

  private openClass(): void {
    this.inClass = true;
    const negated = this.src[this.i + 1] === "^";
    this.emit(negated ? "[^" : "[", negated ? 2 : 1);
    // A `]` first in a class is a literal `]` in Rust; JavaScript needs it escaped.
    if (this.src[this.i] === "]") this.emit("\\]", 1);
  }

  private classChar(ch: string): void {
    if (ch === "]") {
      this.inClass = false;
      return this.emit("]", 1);
    }
    if (ch === "[") {
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.i));
      if (!posix) unsupported("a nested character class", "list the characters in one class");
      const range = POSIX_CLASSES[posix[2] ?? ""];
      if (posix[1] || range === undefined) unsupported(`the class [:${posix[1]}${posix[2]}:]`, "spell out the characters");
      return this.emit(range, posix[0].length);
    }
    const pair = this.src.slice(this.i, this.i + 2);
    if (pair === "&&" || pair === "--" || pair === "~~") unsupported(`class set operation "${pair}"`, "write the resulting characters as one class");
    this.emit(ch, 1);
  }

  private escape(): void {
    const next = this.src[this.i + 1];
    if (next === undefined) return this.emit("\\\\", 1); // JavaScript rejects a trailing backslash too, clearly
    if (next === "A" && !this.inClass) return this.emit("^", 2);
    if (next === "z" && !this.inClass) return this.emit("$", 2);
    if (next === "p" || next === "P") return this.unicodeClass(next);
    if (next === "x" && this.src[this.i + 2] === "{") {
      const m = /^\\x\{([0-9a-fA-F]+)\}/.exec(this.src.slice(this.i));
      if (!m) unsupported("a malformed \\x{…} escape", "write \\x{HEX}");
      this.needsUnicode = true;
      return this.emit(`\\u{${m[1]}}`, m[0].length);
    }
    if (/[0-9a-zA-Z]/.test(next) || SYNTAX_CHARS.has(next) || (next === "-" && this.inClass)) return this.emit(`\\${next}`, 2);
    // Rust lets any punctuation be escaped; with the `u` flag JavaScript does not, and bare it means the same.
    return this.emit(next, 2);
  }

  /** `\pL` → `\p{L}`; `\p{Greek}` stays; both need the `u` flag. */
  private unicodeClass(kind: "p" | "P"): void {
    this.needsUnicode = true;
    const braced = /^\\[pP](\{[^}]*\})/.exec(this.src.slice(this.i));
    if (braced) return this.emit(`\\${kind}${braced[1]}`, braced[0].length);
    const letter = this.src[this.i + 2];
    if (letter === undefined) unsupported("a \\p escape with no class name", "write \\p{Letter}");
    this.emit(`\\${kind}{${letter}}`, 3);
  }
}
