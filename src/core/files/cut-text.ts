/** Cuts text to a byte budget (web pages, git diffs of the @-mentions). */

/** The text within `maxBytes`, ending at a line break when one is near the limit. */
export function cutText(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return { text, cut: false };
  // Decoding drops a character split at the cut as U+FFFD; strip that instead of showing it.
  const prefix = bytes.subarray(0, maxBytes).toString("utf8").replace(/\uFFFD$/, "");
  const lineEnd = prefix.lastIndexOf("\n");
  return { text: lineEnd > prefix.length * 0.8 ? prefix.slice(0, lineEnd) : prefix, cut: true };
}
