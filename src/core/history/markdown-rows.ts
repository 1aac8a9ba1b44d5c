/**
 * One chat row as Markdown, for a task's export (`task-markdown.ts`): who said what, each tool call
 * with what it was given and what came back, each request's tokens and cost. Every kind of row is
 * named here, so a new kind fails to compile until it is given a form.
 */
import { commandEndText, confinementShort } from "../../shared/command-run";
import { focusChainMarkdown, focusChainProgress } from "../../shared/focus-chain";
import type { AskMessage, ChatMessage, McpResultView, SayMessage, ToolMessageInfo } from "../../shared/messages";
import { ledgerText } from "../../shared/task-ledger";

/** What each tool's `content` is, as the tools fill it in (core/task/tools). */
const CONTENT_LABELS: Record<string, string> = {
  read_file: "File",
  web_fetch: "URL",
  write_to_file: "Content",
  replace_in_file: "Changes",
  list_files: "Result",
  search_files: "Result",
  list_code_definition_names: "Result",
  use_mcp_tool: "Arguments",
  access_mcp_resource: "Resource",
};

export interface RowContext {
  /** Request `n` of the task: numbered as they come. */
  requestNumber(message: ChatMessage): number;
  /** "Checkpoint 2", for a checkpoint row. */
  checkpointName(message: ChatMessage): string | undefined;
  time(ts: number): string;
}

/** The row as Markdown blocks; "" for a row that says nothing of its own (an empty question after a result). */
export function rowMarkdown(message: ChatMessage, context: RowContext): string {
  if (message.partial) return "";
  const text = message.text ?? "";
  if (message.type === "say") return SAY_ROWS[message.say](message, text, context);
  return ASK_ROWS[message.ask](message, text, message.outcome ? ` (${OUTCOME_WORDS[message.outcome]})` : "");
}

/** Each kind of report: a Record, so a kind without a form does not compile. */
const SAY_ROWS: Record<SayMessage["say"], (message: SayMessage, text: string, context: RowContext) => string> = {
  task: (m, text, context) => `### You · ${context.time(m.ts)}\n\n${text}${imagesNote(m)}`,
  user_feedback: (m, text, context) => `### You · ${context.time(m.ts)}\n\n${text}${imagesNote(m)}`,
  text: (_m, text) => (text.trim() ? `### Tandem\n\n${text}` : ""),
  reasoning: (_m, text) => (text.trim() ? `<details><summary>Thinking</summary>\n\n${text}\n\n</details>` : ""),
  api_req_started: (m, _text, context) => requestLine(m, context),
  error: (_m, text) => quote(`**Error:** ${text}`),
  error_retry: (m, text) =>
    quote(m.retry ? `Retrying (attempt ${m.retry.attempt} of ${m.retry.maxAttempts}, after ${m.retry.delaySeconds} s): ${m.retry.reason}` : `Retrying: ${text}`),
  context_truncated: (_m, text) => quote(`The conversation was shortened to fit the context window.${text ? ` ${text}` : ""}`),
  context_condensed: (m, text) => {
    const c = m.condense;
    const figures = c ? ` (${c.tokensBefore.toLocaleString("en-US")} → ${c.tokensAfter.toLocaleString("en-US")} tokens)` : "";
    return `<details><summary>The conversation was summarised${figures}</summary>\n\n${text}\n\n</details>`;
  },
  tool: (m, text) => toolMarkdown(m.tool, text, "done"),
  completion_result: (_m, text) => `### Result\n\n${text}`,
  command: (_m, text) => `**Command** \`${inline(text)}\``,
  command_output: (m) => commandOutput(m),
  info: (_m, text) => (text ? quote(text) : ""),
  checkpoint_created: (m, _text, context) => `*${context.checkpointName(m) ?? "Checkpoint"} saved.*`,
  checkpoint_restored: (m) => {
    const removed = m.removedRequests;
    const cost = removed ? ` The ${removed.requests} request${removed.requests === 1 ? "" : "s"} it removed cost ${dollars(removed.cost)}, kept in the totals.` : "";
    return quote(`The task was taken back to a checkpoint.${cost}`);
  },
  hook: (m, text) => quote(m.hook ? `Hook ${m.hook.point} (${m.hook.source}): ${m.hook.outcome}${m.hook.message ? `: ${m.hook.message}` : ""}` : `Hook: ${text}`),
  task_progress: (m) => (m.focusChain ? `**Checklist** ${focusChainProgress(m.focusChain.items)}\n\n${focusChainMarkdown(m.focusChain.items)}` : ""),
  task_ledger: (m) => (m.ledger ? fenced(ledgerText(m.ledger)) : ""),
};

/** Each kind of question, with how it was answered. */
const ASK_ROWS: Record<AskMessage["ask"], (message: AskMessage, text: string, answer: string) => string> = {
  followup: (m, text) => `### Tandem asks\n\n${text}${optionsList(m.options)}`,
  plan_mode_respond: (m, text) => `### Plan\n\n${text}${optionsList(m.options)}`,
  tool: (m, text) => toolMarkdown(m.tool, text, m.outcome === undefined ? "asked" : OUTCOME_WORDS[m.outcome]),
  command: (_m, text, answer) => `**Command** \`${inline(text)}\`${answer || " (asked)"}`,
  command_output: (_m, _text, answer) => quote(`The command was still running${answer}.`),
  completion_result: (_m, text) => (text ? `### Result\n\n${text}` : ""),
  api_req_failed: (_m, text, answer) => quote(`**The request failed:** ${text}${answer}`),
  mistake_limit_reached: (_m, text, answer) => quote(`${text}${answer}`),
  spend_limit_reached: (_m, text, answer) => quote(`${text}${answer}`),
  new_task: (_m, text, answer) => `### Tandem proposes a new task${answer}\n\n${text}`,
  resume_task: (_m, _text, answer) => quote(`The task was interrupted here, and taken up again${answer}.`),
};

const OUTCOME_WORDS: Record<NonNullable<AskMessage["outcome"]>, string> = {
  yes: "approved",
  no: "declined",
  message: "answered with a message",
  cancelled: "cancelled",
};

/** A tool call: its name and target, how it stood, what it was given or returned. */
function toolMarkdown(tool: ToolMessageInfo | undefined, text: string, state: string): string {
  if (!tool) return text ? quote(text) : "";
  const mcp = tool.mcp;
  const target = mcp ? `${mcp.server}/${mcp.tool ?? mcp.uri ?? ""}` : tool.path;
  const notRun = tool.cutOff ? "cut off, not run" : tool.blocked ? "blocked by a hook, not run" : tool.refusedIn ? `not run in ${tool.refusedIn} mode` : undefined;
  const head = `#### Tool \`${tool.tool}\`${target ? ` · \`${inline(target)}\`` : ""} · ${notRun ?? state}`;
  const parts = [head];
  if (notRun && text) parts.push(text);
  if (tool.content) parts.push(`${CONTENT_LABELS[tool.tool] ?? "Details"}:\n\n${fenced(tool.content)}`);
  if (mcp?.result) parts.push(mcpResult(mcp.result));
  return parts.join("\n\n");
}

function mcpResult(result: McpResultView): string {
  const parts = result.parts.map((part) => {
    switch (part.type) {
      case "text":
        return fenced(part.text);
      case "image":
        return `*(an image, ${part.mimeType})*`;
      case "resource":
        return `Resource \`${inline(part.uri)}\`:\n\n${fenced(part.text)}`;
      case "resource_link":
        return `Link: [${part.name}](${part.uri})${part.description ? ` — ${part.description}` : ""}`;
    }
  });
  const notes = [result.omitted ? `left out: ${result.omitted}` : "", result.whole ? `the whole result is in ${result.whole.path}` : ""].filter(Boolean);
  return [`${result.isError ? "The tool reported an error" : "Result"}${notes.length ? ` (${notes.join("; ")})` : ""}:`, ...parts].join("\n\n");
}

function commandOutput(message: SayMessage): string {
  const run = message.command;
  const output = message.text ? `Output:\n\n${fenced(message.text)}` : "";
  if (!run?.end) return output;
  const end = `*${run.background ? `${run.background}: ` : ""}${commandEndText(run.end)}, ${confinementShort(run.confinement)}.*`;
  const blocked = run.blocked?.length ? `\n\nThe sandbox blocked: ${run.blocked.map((b) => b.target ?? b.evidence).join("; ")}` : "";
  return [output, end + blocked].filter(Boolean).join("\n\n");
}

function requestLine(message: SayMessage, context: RowContext): string {
  const r = message.apiRequest;
  if (!r) return "";
  const outcome = r.outcome ? ` (${r.outcome}${r.error ? `: ${r.error}` : ""})` : "";
  return `*Request ${context.requestNumber(message)}: ${usageWords(r)}${outcome}*`;
}

/** A request's or a task's tokens and cost, in words. */
export function usageWords(u: { tokensIn: number; tokensOut: number; cacheWrites: number; cacheReads: number; cost: number }): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return `${n(u.tokensIn)} tokens in, ${n(u.tokensOut)} out, ${n(u.cacheWrites)} cache writes, ${n(u.cacheReads)} cache reads, ${dollars(u.cost)}`;
}

export function dollars(usd: number): string {
  return `$${Math.max(0, usd).toFixed(4)}`;
}

function imagesNote(message: ChatMessage): string {
  const count = message.images?.length ?? 0;
  return count > 0 ? `\n\n*(${count} image${count === 1 ? "" : "s"} attached)*` : "";
}

function optionsList(options: readonly string[] | undefined): string {
  return options?.length ? `\n\nOptions:\n${options.map((option) => `- ${option}`).join("\n")}` : "";
}

function quote(text: string): string {
  return text.split("\n").map((line) => `> ${line}`).join("\n");
}

/** Text for inside single backticks: on one line, its own backticks made plain quotes. */
function inline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/`/g, "'");
}

/** A fenced block whose fence is longer than any run of backticks inside it. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text.replace(/\n$/, "")}\n${fence}`;
}
