/**
 * A SKILL.md's front matter, read the forgiving way other agents read it: a `---` line, then
 * `key: value` lines (a value may be quoted, or folded over indented lines after `>`/`|`), then
 * `---`. Only the keys skills use matter, so this is not a YAML parser and never throws: what it
 * cannot read is simply absent, and the caller says what is missing.
 */

export interface FrontMatter {
  readonly fields: ReadonlyMap<string, string>;
  /** The text after the closing `---` (the whole text when there is no front matter). */
  readonly body: string;
  /** False when the file does not open with a complete `---` block. */
  readonly found: boolean;
}

const FENCE = /^---[ \t]*$/;

export function readFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? "")) return { fields: new Map(), body: text, found: false };
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end < 0) return { fields: new Map(), body: text, found: false };
  return { fields: fieldsOf(lines.slice(1, end)), body: lines.slice(end + 1).join("\n"), found: true };
}

function fieldsOf(lines: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const match = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(lines[i] ?? "");
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    let value = match[2]!.trim();
    // A block scalar (`description: >`) or a value that goes on over indented lines.
    const continued: string[] = [];
    while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] ?? "")) continued.push((lines[++i] ?? "").trim());
    if (/^[>|][-+]?$/.test(value)) value = continued.join(" ");
    else if (continued.length > 0) value = [value, ...continued].join(" ");
    // First one wins, as for the skills themselves.
    if (!fields.has(key)) fields.set(key, unquote(value));
  }
  return fields;
}

function unquote(value: string): string {
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    const inner = value.slice(1, -1);
    return value.startsWith('"') ? inner.replace(/\\"/g, '"').replace(/\\\\/g, "\\") : inner.replace(/''/g, "'");
  }
  return value;
}
