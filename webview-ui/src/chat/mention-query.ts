/**
 * The @-menu's logic, free of React: which `@…` the caret is in, what the menu offers for it
 * (the fixed mentions, then the host's matching files and folders), and what picking one does to
 * the text. The syntax is the core's (src/shared/mention-syntax.ts): a mention starts the
 * text or follows white space or an opening bracket or quote, paths start with `/`, and spaces in
 * them are written `\ `.
 */
import type { WorkspaceEntryView } from "../../../src/shared/protocol";

/** The `@` being typed: where it starts and what follows it up to the caret. */
export interface MentionQuery {
  readonly start: number;
  readonly query: string;
}

export interface MenuItem {
  /** What picking it inserts (without the space that follows). */
  readonly insert: string;
  readonly label: string;
  readonly detail?: string;
  readonly kind: "fixed" | "file" | "folder" | "commit" | "url";
}

const FIXED: readonly MenuItem[] = [
  { insert: "@problems", label: "Problems", detail: "the workspace's errors and warnings", kind: "fixed" },
  { insert: "@terminal", label: "Terminal", detail: "the terminals' recent output", kind: "fixed" },
  { insert: "@git-changes", label: "Git changes", detail: "the working tree's diff", kind: "fixed" },
];

const COMMIT = /^[0-9a-f]{7,40}$/i;
const URL_START = /^https?:\/\/\S+$/i;

/** The mention the caret is in, or none. Typing past an unescaped space leaves it. */
export function mentionQueryAt(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const match = /(?:^|[\s([{"'`])@((?:\\ |[^\s])*)$/.exec(before);
  if (!match) return undefined;
  const query = match[1] ?? "";
  return { start: caret - query.length - 1, query };
}

/** The fixed items that fit the query, then a commit or URL typed in full, then the files and folders. */
export function menuItems(query: string, results: readonly WorkspaceEntryView[]): MenuItem[] {
  const q = query.toLowerCase();
  const fixed = FIXED.filter((item) => q === "" || item.insert.slice(1).startsWith(q) || item.label.toLowerCase().startsWith(q));
  const typed: MenuItem[] = [];
  if (COMMIT.test(query)) typed.push({ insert: `@${query}`, label: `Commit ${query}`, detail: "its message and diff", kind: "commit" });
  if (URL_START.test(query)) typed.push({ insert: `@${query}`, label: query, detail: "fetch this page", kind: "url" });
  const files = results.map((entry): MenuItem => ({ insert: mentionForPath(entry.path, entry.isFolder), label: entry.isFolder ? `${entry.path}/` : entry.path, kind: entry.isFolder ? "folder" : "file" }));
  return [...fixed, ...typed, ...files];
}

/** How a workspace path is typed after `@`: from `/`, spaces escaped, a folder ending in `/`. */
export function mentionForPath(relative: string, isFolder: boolean): string {
  const escaped = relative.replace(/ /g, "\\ ");
  return `@/${escaped}${isFolder ? "/" : ""}`;
}

/** The text with the `@query` at `mention` replaced by the item and a space; where the caret goes. */
export function insertMention(text: string, mention: MentionQuery, item: MenuItem): { text: string; caret: number } {
  const end = mention.start + 1 + mention.query.length;
  const rest = text.slice(end);
  const inserted = `${item.insert}${rest.startsWith(" ") ? "" : " "}`;
  return { text: `${text.slice(0, mention.start)}${inserted}${rest}`, caret: mention.start + inserted.length + (rest.startsWith(" ") ? 1 : 0) };
}

/** What the host's search is asked for a query: a leading `/` and escapes are the syntax, not the name. */
export function searchTextOf(query: string): string {
  return query.replace(/^\/+/, "").replace(/\\ /g, " ");
}
