/**
 * Text from the model, a file, a command or a server, made safe to print on a terminal: every
 * control character shows as a visible sign instead of acting. Raw, an OSC 52 sequence writes the
 * clipboard, a title sequence renames the window, and ESC or a bare carriage return can paint
 * `echo hello` over the `touch …` that runs after "y". Line breaks and tabs stay; a CRLF line end
 * is a line end. C0 controls and DEL become their Unicode control pictures (ESC is ␛, CR is ␍),
 * C1 controls and the bidirectional overrides (which reorder what a line shows) their code point.
 */

// C0 except tab and line feed, DEL, C1, and the bidi embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function visibleText(text: string): string {
  return text.replace(CONTROL, (c) => {
    if (c === "\r\n") return "\n";
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return "\u2421";
    return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  });
}
