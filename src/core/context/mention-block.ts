import { UNSAFE_CHARACTER } from "../util/one-line-name";

/** The delimited block a mention expands into: `<tag attr="…">\n…\n</tag>`, after the person's text. */
export function mentionBlock(tag: string, attributes: Readonly<Record<string, string>>, body: string): string {
  const attrs = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  return `<${tag}${attrs}>\n${body.replace(/\n+$/, "")}\n</${tag}>`;
}

const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, "g");

/** Also line breaks and other controls, as character references: a path's attribute stays on its tag's line. */
function escapeAttribute(value: string): string {
  return (
    value
      .replace(/&/g, "&amp;")
      .replace(/"/g, "&quot;")
      .replace(/</g, "&lt;")
      .replace(UNSAFE_CHARACTERS, (c) => `&#${c.charCodeAt(0)};`)
  );
}
