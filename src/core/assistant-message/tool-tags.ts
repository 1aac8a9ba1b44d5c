/**
 * The tag tables both parsers scan for, built once per grammar, plus the few character rules they
 * must agree on exactly (what counts as whitespace, how raw values lose their framing newlines).
 */
import type { ToolGrammar } from "./types";

/** Cline's tools and their parameters; the tool registry will supply its own grammar later. */
export const DEFAULT_TOOL_GRAMMAR: ToolGrammar = grammarOf({
  execute_command: ["command", "requires_approval", "timeout"],
  read_file: ["path", "start_line", "end_line"],
  write_to_file: ["path", "content"],
  replace_in_file: ["path", "diff"],
  search_files: ["path", "regex", "file_pattern"],
  list_files: ["path", "recursive"],
  list_code_definition_names: ["path"],
  browser_action: ["action", "url", "coordinate", "text"],
  use_mcp_tool: ["server_name", "tool_name", "arguments"],
  access_mcp_resource: ["server_name", "uri"],
  ask_followup_question: ["question", "options"],
  attempt_completion: ["result", "command"],
  new_task: ["context"],
  plan_mode_respond: ["response"],
  load_mcp_documentation: [],
  web_fetch: ["url"],
});

/**
 * Parameters whose value is a file body or a diff: not trimmed (one framing newline is dropped at
 * each end) and allowed to contain their own closing tag; see `parse-assistant-message.ts`.
 */
export const RAW_PARAMS: ReadonlyMap<string, string> = new Map([
  ["write_to_file", "content"],
  ["replace_in_file", "diff"],
]);

export function grammarOf(tools: Record<string, readonly string[]>): ToolGrammar {
  return new Map(Object.entries(tools).map(([name, params]) => [name, new Set(params)]));
}

/** What a tag found inside a tool's body means. */
export type BodyTag =
  | { readonly kind: "close"; readonly tag: string }
  | { readonly kind: "param"; readonly tag: string; readonly name: string; readonly close: string; readonly raw: boolean };

export interface CompiledTool {
  readonly name: string;
  readonly open: string;
  readonly close: string;
  /** `</tool>` and `<param>` for each of its params: what ends junk between params. */
  readonly bodyTags: TagTable<BodyTag>;
}

export interface CompiledGrammar {
  readonly openTags: TagTable<CompiledTool>;
}

/** Tags looked up by their exact text, plus what a scanner needs to spot half-arrived ones. */
export interface TagTable<T> {
  readonly byTag: ReadonlyMap<string, T>;
  readonly tags: readonly string[];
  readonly maxLength: number;
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const compiled = new WeakMap<ToolGrammar, CompiledGrammar>();

export function compileGrammar(grammar: ToolGrammar): CompiledGrammar {
  const cached = compiled.get(grammar);
  if (cached) return cached;
  const tools = new Map<string, CompiledTool>();
  for (const [name, params] of grammar) {
    checkName(name, "tool");
    const close = `</${name}>`;
    const body = new Map<string, BodyTag>([[close, { kind: "close", tag: close }]]);
    for (const param of params) {
      checkName(param, `parameter of ${name}`);
      const tag = `<${param}>`;
      body.set(tag, { kind: "param", tag, name: param, close: `</${param}>`, raw: RAW_PARAMS.get(name) === param });
    }
    tools.set(`<${name}>`, { name, open: `<${name}>`, close, bodyTags: tagTable(body) });
  }
  const result: CompiledGrammar = { openTags: tagTable(tools) };
  compiled.set(grammar, result);
  return result;
}

function checkName(name: string, what: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new Error(`Tool grammar: ${what} name ${JSON.stringify(name)} must be letters, digits, _ or - (no <, > or spaces)`);
  }
}

function tagTable<T>(byTag: ReadonlyMap<string, T>): TagTable<T> {
  const tags = [...byTag.keys()];
  return { byTag, tags, maxLength: Math.max(0, ...tags.map((t) => t.length)) };
}

/** Returned by `tagAt` when the text ends inside something that may still become a tag. */
export const PARTIAL = Symbol("partial tag");

/**
 * The tag starting at `text[at]` (which is `<`), looking no further than `end`: its entry, `undefined`
 * when it is no tag of the table, or PARTIAL when `text[at, end)` is a proper prefix of one.
 */
export function tagAt<T>(text: string, at: number, end: number, table: TagTable<T>): T | undefined | typeof PARTIAL {
  const stop = Math.min(end, at + table.maxLength);
  for (let i = at + 1; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === GT) return table.byTag.get(text.slice(at, i + 1));
    if (c === LT) return undefined;
  }
  if (stop - at >= table.maxLength) return undefined;
  const head = text.slice(at, stop);
  return table.tags.some((t) => t.startsWith(head)) ? PARTIAL : undefined;
}

const LT = 0x3c;
const GT = 0x3e;
const LF = 0x0a;
const CR = 0x0d;

/** Exactly the characters String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator). */
export function isWs(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** A raw value as written between its tags, less one leading and one trailing newline (LF or CRLF). */
export function dropFramingNewlines(s: string): string {
  let from = 0;
  if (s.charCodeAt(0) === CR && s.charCodeAt(1) === LF) from = 2;
  else if (s.charCodeAt(0) === LF) from = 1;
  let to = s.length;
  if (to - from >= 2 && s.charCodeAt(to - 2) === CR && s.charCodeAt(to - 1) === LF) to -= 2;
  else if (to - from >= 1 && s.charCodeAt(to - 1) === LF) to -= 1;
  return from === 0 && to === s.length ? s : s.slice(from, to);
}
