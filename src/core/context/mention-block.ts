/** The delimited block a mention expands into: `<tag attr="…">\n…\n</tag>`, after the person's text. */
export function mentionBlock(tag: string, attributes: Readonly<Record<string, string>>, body: string): string {
  const attrs = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  return `<${tag}${attrs}>\n${body.replace(/\n+$/, "")}\n</${tag}>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
