/**
 * Tool-call tags in an answer that named no tool Tandem has (`<browser_action>` before that tool
 * exists): the parser reads them as text, so the round used no tool. Said back to the model by
 * name, with the tools it has, instead of a bare "you used no tool".
 */
import type { ToolGrammar } from "./tools/registry";

/** `<snake_case>` opening a line and closed later: the shape of a call, not of prose or a parameter. */
const CALL_TAG = /^[ \t]*<([a-z][a-z0-9]*(?:_[a-z0-9]+)+)>/gm;

/** The tag names in `text` shaped like a tool call that are neither a tool nor a parameter of one, in order, each once. */
export function unknownToolTags(text: string, grammar: ToolGrammar): string[] {
  const params = new Set([...grammar.values()].flatMap((names) => [...names]));
  const found = new Set<string>();
  for (const match of text.matchAll(CALL_TAG)) {
    const name = match[1] as string;
    if (grammar.has(name) || params.has(name)) continue;
    if (text.includes(`</${name}>`, (match.index ?? 0) + match[0].length)) found.add(name);
  }
  return [...found];
}
