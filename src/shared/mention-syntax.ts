/**
 * Finds the @-mentions in what the person typed: `@/path/to/file`, `@/path/to/folder/`
 * (workspace-relative; a space inside the path is written `\ `), `@problems`, `@terminal`,
 * `@git-changes`, `@<7-40 hex digits>` (a commit) and `@https://…` (a URL). A mention starts
 * the text or follows white space or an opening bracket or quote, so an e-mail address
 * (`me@example.com`) is no mention. Punctuation that ends a sentence is not part of it.
 *
 * Shared, so the core (which expands mentions) and the panel's input (which highlights them) read
 * the same syntax: what the input marks is what the model gets.
 */

export type Mention =
  /** `path`: workspace-relative, without the leading slash, unescaped. */
  | { readonly kind: "file"; readonly path: string; readonly typed: string }
  | { readonly kind: "folder"; readonly path: string; readonly typed: string }
  | { readonly kind: "problems"; readonly typed: string }
  | { readonly kind: "terminal"; readonly typed: string }
  | { readonly kind: "git-changes"; readonly typed: string }
  | { readonly kind: "commit"; readonly hash: string; readonly typed: string }
  | { readonly kind: "url"; readonly url: string; readonly typed: string };

/** A text with more mentions than this is mostly mentions: the rest is left as typed. */
export const MAX_MENTIONS = 20;

// The body of a mention: escaped spaces or anything but white space.
const MENTION = /(?<=^|[\s([{"'`])@((?:\\ |\S)+)/g;
const KEYWORDS = new Set(["problems", "terminal", "git-changes"]);
const COMMIT = /^[0-9a-f]{7,40}$/i;
const URL_START = /^https?:\/\//i;
/** What ends a sentence or closes a bracket; a path or URL seldom ends with one. */
const TRAILING = /[.,;:!?)\]}'"`>]+$/;

/** Where a mention stands in the text: `text.slice(start, end)` is its `typed`. */
export interface MentionSpan {
  readonly start: number;
  readonly end: number;
  readonly mention: Mention;
}

/** The mentions in `text`, in order, each once (the first of the same mention typed twice). */
export function parseMentions(text: string): Mention[] {
  const found: Mention[] = [];
  const seen = new Set<string>();
  for (const { mention } of scan(text)) {
    const key = mentionKey(mention);
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(mention);
    if (found.length === MAX_MENTIONS) break;
  }
  return found;
}

/**
 * Every place in `text` that parseMentions reads, repeats of a mention included, in order; a
 * mention past the limit (which parseMentions leaves as typed) has none.
 */
export function mentionSpans(text: string): MentionSpan[] {
  const spans: MentionSpan[] = [];
  const seen = new Set<string>();
  for (const span of scan(text)) {
    const key = mentionKey(span.mention);
    if (!seen.has(key)) {
      if (seen.size === MAX_MENTIONS) continue;
      seen.add(key);
    }
    spans.push(span);
  }
  return spans;
}

function* scan(text: string): Generator<MentionSpan> {
  if (!text.includes("@")) return;
  for (const match of text.matchAll(MENTION)) {
    const mention = readMention(match[1] ?? "");
    if (mention) yield { start: match.index, end: match.index + mention.typed.length, mention };
  }
}

function readMention(raw: string): Mention | undefined {
  const body = stripTrailing(raw);
  if (body === "") return undefined;
  const typed = `@${body}`;
  if (KEYWORDS.has(body)) return { kind: body as "problems" | "terminal" | "git-changes", typed };
  if (COMMIT.test(body)) return { kind: "commit", hash: body.toLowerCase(), typed };
  if (URL_START.test(body)) return { kind: "url", url: body, typed };
  if (!body.startsWith("/")) return undefined;
  const unescaped = body.replace(/\\ /g, " ");
  const isFolder = unescaped.endsWith("/");
  const relative = unescaped.replace(/^\/+/, "").replace(/\/+$/, "");
  if (relative === "") return { kind: "folder", path: ".", typed };
  return { kind: isFolder ? "folder" : "file", path: relative, typed };
}

/**
 * Sentence punctuation at the end is not part of the mention (`see @/a.ts.`), but an escaped
 * space never ends one, and a closing bracket stays when the mention opened it (`@/f(1).txt`).
 */
function stripTrailing(raw: string): string {
  let body = raw.replace(/\\$/, "");
  for (;;) {
    const trailing = TRAILING.exec(body)?.[0];
    if (!trailing) return body;
    const last = trailing.at(-1)!;
    const opener = { ")": "(", "]": "[", "}": "{" }[last];
    if (opener && count(body, opener) >= count(body, last)) return body;
    body = body.slice(0, -1);
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function mentionKey(mention: Mention): string {
  switch (mention.kind) {
    case "file":
    case "folder":
      return `${mention.kind}:${mention.path}`;
    case "commit":
      return `commit:${mention.hash}`;
    case "url":
      return `url:${mention.url}`;
    default:
      return mention.kind;
  }
}
