/**
 * JSON.parse that remembers where each value sits, so a configuration error can name its line
 * and column ("line 7: "timeout" must be …"), and whose syntax errors name their line too
 * (V8's JSON.parse reports only an offset, and not in every version). Plain JSON, no comments.
 */

export interface JsonPosition {
  readonly line: number;
  readonly column: number;
}

export interface LocatedJson {
  readonly value: unknown;
  /** Where the value at a path starts, keyed by `pathKey([...])`. */
  readonly positions: ReadonlyMap<string, JsonPosition>;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: JsonPosition,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/** The key for a path of object keys and array indexes. */
export function pathKey(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

export function parseLocatedJson(text: string): LocatedJson {
  const parser = new Parser(text.replace(/^\uFEFF/, ""));
  return { value: parser.parseDocument(), positions: parser.positions };
}

class Parser {
  readonly positions = new Map<string, JsonPosition>();
  private i = 0;
  /** Offsets where lines start, so a position costs a binary search, not a scan. */
  private readonly lineStarts: number[] = [0];

  constructor(private readonly s: string) {
    for (let k = s.indexOf("\n"); k !== -1; k = s.indexOf("\n", k + 1)) this.lineStarts.push(k + 1);
  }

  parseDocument(): unknown {
    this.skipSpace();
    const value = this.parseValue([]);
    this.skipSpace();
    if (this.i < this.s.length) this.fail("unexpected text after the end of the JSON value");
    return value;
  }

  private parseValue(path: (string | number)[]): unknown {
    this.positions.set(pathKey(path), this.position());
    const c = this.s[this.i];
    if (c === "{") return this.parseObject(path);
    if (c === "[") return this.parseArray(path);
    if (c === '"') return this.parseString();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.parseNumber();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return value;
      }
    }
    return this.fail(c === undefined ? "unexpected end of file: a value is missing" : `unexpected ${describe(c)}: expected a value`);
  }

  private parseObject(path: (string | number)[]): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.i++;
    this.skipSpace();
    if (this.s[this.i] === "}") {
      this.i++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] !== '"') this.fail(`expected a property name in double quotes, found ${this.found()}`);
      const key = this.parseString();
      this.skipSpace();
      if (this.s[this.i] !== ":") this.fail(`expected ':' after the property name "${key}", found ${this.found()}`);
      this.i++;
      this.skipSpace();
      result[key] = this.parseValue([...path, key]);
      this.skipSpace();
      const c = this.s[this.i];
      this.i++;
      if (c === "}") return result;
      if (c !== ",") this.fail(`expected ',' or '}' after the value of "${key}", found ${c === undefined ? "the end of the file" : describe(c)}`, -1);
    }
  }

  private parseArray(path: (string | number)[]): unknown[] {
    const result: unknown[] = [];
    this.i++;
    this.skipSpace();
    if (this.s[this.i] === "]") {
      this.i++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      result.push(this.parseValue([...path, result.length]));
      this.skipSpace();
      const c = this.s[this.i];
      this.i++;
      if (c === "]") return result;
      if (c !== ",") this.fail(`expected ',' or ']' in a list, found ${c === undefined ? "the end of the file" : describe(c)}`, -1);
    }
  }

  private parseString(): string {
    const start = this.i;
    this.i++;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined || c === "\n") this.fail("a string is not closed (missing '\"')", 0, start);
      if (c === '"') break;
      if (c === "\\") this.i++;
      this.i++;
    }
    this.i++;
    try {
      return JSON.parse(this.s.slice(start, this.i)) as string;
    } catch {
      return this.fail("invalid escape or control character in a string", 0, start);
    }
  }

  private parseNumber(): number {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!match) this.fail(`invalid number`);
    this.i += match[0].length;
    return Number(match[0]);
  }

  private skipSpace(): void {
    while (this.i < this.s.length && " \t\r\n".includes(this.s[this.i] as string)) this.i++;
  }

  private found(): string {
    const c = this.s[this.i];
    return c === undefined ? "the end of the file" : describe(c);
  }

  private position(at = this.i): JsonPosition {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - (this.lineStarts[low] as number) + 1 };
  }

  private fail(message: string, offset = 0, at = this.i + offset): never {
    const position = this.position(Math.max(0, Math.min(at, this.s.length)));
    throw new JsonSyntaxError(message, position);
  }
}

function describe(c: string): string {
  return c === "\n" ? "a line break" : `'${c}'`;
}
