/**
 * Prepares streamed prose for the chat: drops `<thinking>` tags (some models write their
 * reasoning inline) and, while the text is still streaming, a half-typed tag at its end
 * (`… <read_fi`), which would otherwise flash on screen before the parser claims it.
 */
export function sanitizeStreamingText(content: string, partial: boolean): string {
  let text = content.replace(/<\/?thinking>\s?/g, "");
  if (partial) {
    const lastOpen = text.lastIndexOf("<");
    if (lastOpen !== -1 && /^<\/?[a-z_]*$/.test(text.slice(lastOpen))) text = text.slice(0, lastOpen);
  }
  return text.trimEnd();
}
