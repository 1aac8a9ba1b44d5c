/**
 * Condensing a conversation: what the summary request sends, and the history that replaces the
 * old one. Pure functions over the API history; the Task's ContextInLoop makes the request.
 *
 * The new history is the first task message (with the summary added to it, clearly marked) and
 * then the most recent rounds that fit, starting at an assistant message: so roles still
 * alternate, and every tool_use kept is followed by the user message holding its tool_result.
 */
import type { ApiMessage, ContentBlock, TextBlock } from "../../api/types";
import { estimateTokens } from "./context-window";

/** Opens the summary's block in the first message; an older summary is found (and replaced) by it. */
export const SUMMARY_MARK = "[CONDENSED CONTEXT]";

export const SUMMARY_SYSTEM_PROMPT = `You condense the conversation of an AI coding agent with a person, so that the agent can go on with the task in a fresh context that holds only your summary and the latest rounds.

Write the continuation as plain text, with these parts:
1. The task and the person's instructions and preferences, in their own words where the wording matters.
2. Files: each file read, created or changed, with what matters about it and what was changed.
3. Decisions made, findings, errors met and how they were solved.
4. What is done.
5. What is left, and the very next step.

Be complete about facts the agent would otherwise have to find again (paths, names, commands, exact values); leave out pleasantries. Do not call tools and do not ask questions: answer with the summary alone.`;

const SUMMARY_INSTRUCTION = "Summarise the conversation above as the system prompt describes, for the agent to continue from.";

/** The conversation as the summary request sends it: tool calls and results as text (no tools are offered), reasoning left out. */
export function summaryRequest(history: readonly ApiMessage[]): ApiMessage[] {
  const messages: ApiMessage[] = history.map((message) => ({ role: message.role, content: asText(message) }));
  const instruction: TextBlock = { type: "text", text: SUMMARY_INSTRUCTION };
  const last = messages.at(-1);
  if (last?.role === "user") messages[messages.length - 1] = { role: "user", content: [...(last.content as ContentBlock[]), instruction] };
  else messages.push({ role: "user", content: [instruction] });
  return messages;
}

export interface CondensedHistory {
  history: ApiMessage[];
  /** How many messages after the first were summarised away. */
  removed: number;
}

/**
 * The history after condensing: the first message with `summary`, then the recent rounds that
 * fit in `keepTokens` (at least the latest one, which the next request answers). Undefined when
 * there is no earlier round to condense.
 */
export function condenseHistory(history: readonly ApiMessage[], summary: string, keepTokens: number): CondensedHistory | undefined {
  const first = history[0];
  if (!first) return undefined;
  const starts = roundStarts(history);
  const latest = starts.at(-1);
  // The first round (index 1) is no earlier round: starting there would condense nothing.
  if (latest === undefined || latest <= 1) return undefined;
  let keepFrom = latest;
  let kept = estimateTokens(history.slice(latest));
  for (let s = starts.length - 2; s >= 0; s--) {
    const start = starts[s] as number;
    if (start <= 1) break;
    const more = estimateTokens(history.slice(start, keepFrom));
    if (kept + more > keepTokens) break;
    kept += more;
    keepFrom = start;
  }
  const summaryBlock: TextBlock = { type: "text", text: `${SUMMARY_MARK}\n${summary.trim()}\n[The conversation before the rounds below was condensed into this summary.]` };
  const opening: ApiMessage = { role: "user", content: [...withoutSummary(first), summaryBlock] };
  return { history: [opening, ...history.slice(keepFrom)], removed: keepFrom - 1 };
}

/** Indices where a round starts: each assistant message after the first message. */
function roundStarts(history: readonly ApiMessage[]): number[] {
  const starts: number[] = [];
  history.forEach((message, i) => {
    if (i > 0 && message.role === "assistant" && history[i - 1]?.role === "user") starts.push(i);
  });
  return starts;
}

function withoutSummary(message: ApiMessage): ContentBlock[] {
  const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  return blocks.filter((b) => !(b.type === "text" && b.text.startsWith(SUMMARY_MARK)));
}

function asText(message: ApiMessage): TextBlock[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content || "(empty)" }];
  const blocks: TextBlock[] = [];
  for (const block of message.content) {
    const text = blockText(block);
    if (text) blocks.push({ type: "text", text });
  }
  return blocks.length > 0 ? blocks : [{ type: "text", text: "(no text)" }];
}

function blockText(block: ContentBlock): string | undefined {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[an image]";
    case "tool_use":
      return `[tool call ${block.name} ${JSON.stringify(block.input)}]`;
    case "tool_result": {
      const content = typeof block.content === "string" ? block.content : block.content.map((b) => (b.type === "text" ? b.text : "[an image]")).join("\n");
      return `[tool result${block.isError ? " (error)" : ""}]\n${content}`;
    }
    case "thinking":
    case "redacted_thinking":
      return undefined;
  }
}
