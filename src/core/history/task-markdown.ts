/**
 * A saved task as one Markdown document, for the person to keep or share: what the task was, how
 * it ended and what it cost, then the conversation as the panel shows it (the person's messages,
 * the model's, each tool call with its parameters and results, each request's tokens and cost),
 * then the totals, summed as the task header sums them (`sumUsage`).
 */
import { checkpointName, checkpointNumber } from "../../shared/checkpoints";
import type { ChatMessage } from "../../shared/messages";
import type { HistoryItem } from "../../shared/protocol";
import { billedRequestCount, requestInfo, sumUsage } from "../../shared/usage";
import { rowMarkdown, usageWords } from "./markdown-rows";

export function taskMarkdown(item: HistoryItem, chat: readonly ChatMessage[]): string {
  const requests = new Map<number, number>();
  for (const message of chat) if (requestInfo(message)) requests.set(message.ts, requests.size + 1);
  const context = {
    requestNumber: (message: ChatMessage) => requests.get(message.ts) ?? 0,
    checkpointName: (message: ChatMessage) => {
      const number = checkpointNumber(chat, message.ts);
      return number === undefined ? undefined : checkpointName(number);
    },
    time,
  };
  const totals = sumUsage(chat);
  const requestCount = chat.reduce((sum, message) => sum + billedRequestCount(message), 0);
  const facts = [
    ["Task", `\`${item.id}\``],
    ["Started", time(item.startedAt)],
    ["Status", item.status ?? "unknown"],
    ["Workspace", item.workspace ? `\`${item.workspace}\`` : "not recorded"],
    ["Requests", String(requestCount)],
    ["Totals", usageWords(totals)],
  ];
  const rows = chat.map((message) => rowMarkdown(message, context)).filter(Boolean);
  return [
    `# ${title(item.text)}`,
    table(facts),
    "## Conversation",
    ...rows,
    "## Totals",
    `${requestCount} request${requestCount === 1 ? "" : "s"}: ${usageWords(totals)}.`,
  ].join("\n\n") + "\n";
}

/** A file name for the export: the task's first words and its start date, safe on every system. */
export function exportFileName(item: HistoryItem): string {
  const words = item.text.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 50).replace(/-+$/, "") || "task";
  return `tandem-${new Date(item.startedAt).toISOString().slice(0, 10)}-${words.toLowerCase()}.md`;
}

/** The first line of the task, short, as a heading. */
function title(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  const short = line.length > 100 ? `${line.slice(0, 99)}…` : line;
  return short || "Task";
}

function time(ts: number): string {
  return `${new Date(ts).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

function table(facts: string[][]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return ["| | |", "|---|---|", ...facts.map(([name, value]) => `| ${name} | ${cell(value ?? "")} |`)].join("\n");
}
