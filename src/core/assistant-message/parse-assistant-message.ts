/**
 * parseAssistantMessageV2: cuts an assistant answer (complete, or any prefix of a streaming one) into
 * text blocks and tool calls written in Cline's XML syntax. Pure and single-pass: every scan is an
 * indexOf from where the previous one stopped, so the cost is linear in the text.
 *
 * The rules (the incremental parser must give exactly the same result for every prefix):
 * - Outside a tool, `<name>` opens a tool only if `name` is in the grammar; any other tag is text.
 *   Text blocks are trimmed and left out when empty. The text block the text ends in is partial.
 * - Inside tool T, `</T>` closes it and `<p>` opens a parameter only if p is one of T's parameters;
 *   anything else between parameters is ignored. A tool whose `</T>` has not arrived is partial.
 * - A parameter's value runs to the first `</p>` and is trimmed; one left open at the end of the text
 *   takes the rest of the text (its tool is then partial).
 * - Raw parameters (RAW_PARAMS: write_to_file's content, replace_in_file's diff) are not trimmed but
 *   lose one leading and one trailing newline (LF or CRLF), so files land byte-exact; and their value
 *   may contain their own closing tag. Let S be the parameter, T its tool, `</S>` any occurrence after
 *   the value's start. Such an occurrence is
 *     - CONFIRMED when, after optional whitespace, the complete tag `</T>` or `<q>` (q any parameter of
 *       T, S included) follows it;
 *     - PENDING when, after optional whitespace, the text ends or ends inside one of those tags (what
 *       follows may still confirm it);
 *     - literal value text otherwise.
 *   With C1 the first confirmed occurrence and E the first `</T>` after C1, the value ends at the LAST
 *   confirmed occurrence before E, and the tool's body goes on right after that occurrence. Before any
 *   occurrence is confirmed, or while no E has arrived and the text ends on a pending occurrence, the
 *   value ends at that pending occurrence, or else runs to the end of the text; the tool stays partial.
 *   Hence a file may contain `</content>` anywhere except directly (modulo whitespace) before
 *   `</write_to_file>`: a file containing `</content></write_to_file>` literally is cut there and its
 *   remainder read as prose. That is deliberate: E bounds the search, so a tool is final the moment
 *   its closing tag arrives (it can run while the answer still streams, and its block never changes
 *   afterwards), and a second tool call later in the same answer is never swallowed into the first.
 */
import type { AssistantMessageContent, ToolGrammar, ToolUse } from "./types";
import { type CompiledTool, DEFAULT_TOOL_GRAMMAR, compileGrammar, dropFramingNewlines, isWs, tagAt } from "./tool-tags";

export { DEFAULT_TOOL_GRAMMAR } from "./tool-tags";

export function parseAssistantMessageV2(text: string, grammar: ToolGrammar = DEFAULT_TOOL_GRAMMAR): AssistantMessageContent[] {
  if (typeof text !== "string") throw new TypeError(`parseAssistantMessageV2: expected a string, got ${typeof text}`);
  const { openTags } = compileGrammar(grammar);
  const blocks: AssistantMessageContent[] = [];
  let textStart = 0;
  let lt = text.indexOf("<");
  while (lt !== -1) {
    const tool = tagAt(text, lt, text.length, openTags);
    if (typeof tool !== "object") {
      lt = text.indexOf("<", lt + 1);
      continue;
    }
    pushText(blocks, text.slice(textStart, lt), false);
    const block: ToolUse = { type: "tool_use", name: tool.name, params: {}, partial: true };
    blocks.push(block);
    const after = parseToolBody(text, lt + tool.open.length, tool, block.params);
    if (after === -1) return blocks;
    block.partial = false;
    textStart = after;
    lt = text.indexOf("<", after);
  }
  pushText(blocks, text.slice(textStart), true);
  return blocks;
}

function pushText(blocks: AssistantMessageContent[], raw: string, partial: boolean): void {
  const content = raw.trim();
  if (content !== "") blocks.push({ type: "text", content, partial });
}

/** Fills `params` from `text[from...]`; returns the index after `</tool>`, or -1 if the text ends first. */
function parseToolBody(text: string, from: number, tool: CompiledTool, params: Record<string, string>): number {
  let lt = text.indexOf("<", from);
  while (lt !== -1) {
    const tag = tagAt(text, lt, text.length, tool.bodyTags);
    if (typeof tag !== "object") {
      lt = text.indexOf("<", lt + 1);
      continue;
    }
    if (tag.kind === "close") return lt + tag.tag.length;
    const start = lt + tag.tag.length;
    let resume: number;
    if (tag.raw) {
      const end = rawValueEnd(text, start, tag.close, tool);
      params[tag.name] = dropFramingNewlines(text.slice(start, end.valueEnd));
      resume = end.resume;
    } else {
      const close = text.indexOf(tag.close, start);
      params[tag.name] = text.slice(start, close === -1 ? text.length : close).trim();
      resume = close === -1 ? -1 : close + tag.close.length;
    }
    if (resume === -1) return -1;
    lt = text.indexOf("<", resume);
  }
  return -1;
}

/** Where a raw value ends and where the tool's body resumes (-1: the text ends inside the tool). */
function rawValueEnd(text: string, start: number, close: string, tool: CompiledTool): { valueEnd: number; resume: number } {
  let at = text.indexOf(close, start);
  let last = -1; // the last confirmed occurrence so far
  let limit = text.length; // E, once C1 is known
  while (at !== -1 && at < limit) {
    const kind = classify(text, at + close.length, tool);
    if (kind === "pending") return { valueEnd: at, resume: -1 };
    if (kind === "confirmed") {
      if (last === -1) {
        const e = text.indexOf(tool.close, at + close.length);
        if (e !== -1) limit = e;
      }
      last = at;
    }
    at = text.indexOf(close, at + close.length);
  }
  return last === -1 ? { valueEnd: text.length, resume: -1 } : { valueEnd: last, resume: last + close.length };
}

/** What follows a raw value's closing tag that ends at `from`: see the rules at the top. */
function classify(text: string, from: number, tool: CompiledTool): "confirmed" | "pending" | "literal" {
  let i = from;
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  if (i === text.length) return "pending";
  if (text.charCodeAt(i) !== 0x3c) return "literal";
  const tag = tagAt(text, i, text.length, tool.bodyTags);
  if (typeof tag === "object") return "confirmed";
  return tag === undefined ? "literal" : "pending";
}
