/**
 * Whether a sed script only prints. sed can write files (`w`, `s///w`), run commands (`e`,
 * `s///e`) and read files (`r`); the allow-list accepts only scripts built from commands that
 * cannot. Anything this small grammar does not know counts as unsafe.
 */

const PRINT_ONLY_COMMANDS = "pdDnNPgGhHxz=F";
const SUBSTITUTE_FLAGS = /[gpiImM0-9]/;

class Scanner {
  private at = 0;
  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.at >= this.text.length;
  }

  peek(): string {
    return this.text[this.at] ?? "";
  }

  next(): string {
    return this.text[this.at++] ?? "";
  }

  skip(pattern: RegExp): void {
    while (!this.done && pattern.test(this.peek())) this.at++;
  }
}

export function isPrintOnlySedScript(script: string): boolean {
  const s = new Scanner(script);
  for (;;) {
    s.skip(/[\s;}]/);
    if (s.done) return true;
    if (!addressRange(s)) return false;
    s.skip(/[ \t]/);
    if (s.peek() === "!") s.next();
    s.skip(/[ \t]/);
    if (!command(s)) return false;
  }
}

function command(s: Scanner): boolean {
  const c = s.next();
  if (c === "{" || PRINT_ONLY_COMMANDS.includes(c)) return true;
  if (c === "q" || c === "Q" || c === "l") {
    s.skip(/[ \t0-9]/);
    return true;
  }
  if (c === "y") return delimited(s, 2);
  if (c !== "s" || !delimited(s, 2)) return false;
  s.skip(SUBSTITUTE_FLAGS);
  return true;
}

function addressRange(s: Scanner): boolean {
  if (!address(s)) return false;
  s.skip(/[ \t]/);
  if (s.peek() !== ",") return true;
  s.next();
  s.skip(/[ \t]/);
  return address(s);
}

/** A line number (`3`, `1~2`), `$`, `/regex/` or `\cregexc`; an absent address is fine too. */
function address(s: Scanner): boolean {
  const c = s.peek();
  if (/[0-9]/.test(c)) {
    s.skip(/[0-9~]/);
    return true;
  }
  if (c === "$" || c === "+" || c === "~") {
    s.next();
    s.skip(/[0-9]/);
    return true;
  }
  if (c === "/" || c === "\\") {
    if (c === "\\") s.next();
    if (!delimited(s, 1)) return false;
    s.skip(/[IM]/);
  }
  return true;
}

/** Reads a delimiter and `count` sections each ending with it; backslash escapes. */
function delimited(s: Scanner, count: number): boolean {
  const delimiter = s.next();
  if (delimiter === "" || delimiter === "\\" || delimiter === "\n") return false;
  for (let section = 0; section < count; section++) {
    for (;;) {
      if (s.done) return false;
      const c = s.next();
      if (c === "\\") s.next();
      else if (c === delimiter) break;
    }
  }
  return true;
}
