/**
 * The words of a notification, so that a person looking elsewhere knows what Tandem wants without
 * opening the panel: "Tandem wants to run `npm test`", "Tandem finished: Added the --verbose flag".
 * One line each, from the question's row and the chat: an OS notification shows little, so a
 * command, a question or a result is cut to its first line, and control characters (which a model,
 * a file name or a server may carry) become spaces.
 */
import type { AskMessage, ChatMessage, ToolMessageInfo } from "../../../shared/messages";
import type { NoticeEnd } from "../../../shared/notice";

const MAX_LINE = 100;
const MAX_COMMAND = 80;
const MAX_TASK = 60;

/** What a question waits for; undefined for one that is not news (a running command's own question). */
export function questionWords(row: AskMessage): string | undefined {
  const text = row.text ?? "";
  switch (row.ask) {
    case "tool":
      return toolWords(row);
    case "command":
      return `Tandem wants to run ${code(text)}${row.tool?.outsideSandbox ? " outside the sandbox" : ""}`;
    case "followup":
      return `Tandem asks: ${firstLine(text)}`;
    case "plan_mode_respond":
      return `Tandem's plan waits for your reply: ${firstLine(text)}`;
    case "api_req_failed":
      return `A request failed; retry or stop? ${firstLine(text.replace(/^API request failed:\s*/, ""))}`;
    case "mistake_limit_reached":
      return "Tandem made too many mistakes in a row: guide it, or stop";
    case "spend_limit_reached":
      return `Tandem reached a spending cap: ${firstLine(text.split(". ")[0] ?? text)}`;
    case "new_task":
      return "Tandem proposes to go on in a new task";
    case "completion_result":
    case "command_output":
    case "resume_task":
      return undefined;
  }
}

/** A result waits to be accepted (or answered): its first line, and the command it offers to show it; without one, the plan taken as it is. */
export function resultWords(chat: readonly ChatMessage[], offered?: AskMessage): string {
  const result = lastResult(chat);
  const plan = result ? undefined : chat.findLast((m) => m.type === "ask" && m.ask === "plan_mode_respond");
  const head = result ? `Tandem finished: ${firstLine(result.text ?? "")}` : plan ? `Tandem finished the plan: ${firstLine(plan.text ?? "")}` : "Tandem finished the task";
  return offered ? `${head} (it offers to run ${code(offered.text ?? "")})` : head;
}

/** How the task ended, when it stopped without a result. */
export function endWords(outcome: Exclude<NoticeEnd, "completed">, chat: readonly ChatMessage[]): string {
  switch (outcome) {
    case "failed": {
      const why = lastFailure(chat);
      return why ? `Tandem stopped: ${firstLine(why)}` : "Tandem stopped: the task failed";
    }
    case "mistake_limit":
      return "Tandem stopped after too many mistakes in a row";
    case "spend_limit":
      return "Tandem stopped at the task's spending cap";
  }
}

/** The task as the person gave it (its first row), shortened. */
export function taskWords(chat: readonly ChatMessage[]): string {
  const task = chat.find((m) => m.type === "say" && m.say === "task");
  return firstLine(task?.text ?? "", MAX_TASK);
}

/** The last result attempt_completion showed. */
export function lastResult(chat: readonly ChatMessage[]): ChatMessage | undefined {
  return chat.findLast((m) => m.type === "say" && m.say === "completion_result");
}

/** What each tool that asks does to its path, as the notification says it. */
const TOOL_VERBS: Readonly<Record<string, string>> = {
  write_to_file: "write",
  replace_in_file: "edit",
  read_file: "read",
  list_files: "look into",
  list_code_definition_names: "look into",
  search_files: "search",
};

function toolWords(row: AskMessage): string {
  const tool = row.tool;
  if (tool?.mcp) return mcpWords(tool.tool, tool.mcp);
  if (tool?.tool === "web_fetch") return `Tandem wants to fetch ${firstLine(tool.content ?? "")}`;
  const name = tool?.tool ?? "a tool";
  const path = firstLine(tool?.path ?? "");
  if (Object.hasOwn(TOOL_VERBS, name)) return `Tandem wants to ${TOOL_VERBS[name]} ${path}`;
  return `Tandem wants to use ${firstLine(name)}${path ? ` on ${path}` : ""}`;
}

function mcpWords(tool: string, mcp: NonNullable<ToolMessageInfo["mcp"]>): string {
  const server = `of the MCP server ${firstLine(mcp.server)}`;
  if (tool === "access_mcp_resource") return `Tandem wants to read ${firstLine(mcp.uri ?? "a resource")} ${server}`;
  return `Tandem wants to use ${firstLine(mcp.tool ?? "a tool")} ${server}`;
}

/** Why the task failed: the last failed request's error, else the last error row. */
function lastFailure(chat: readonly ChatMessage[]): string | undefined {
  for (let i = chat.length - 1; i >= 0; i--) {
    const m = chat[i]!;
    if (m.type === "say" && m.say === "error" && m.text) return m.text;
    if (m.apiRequest?.outcome === "failed" && m.apiRequest.error) return `the request failed (${m.apiRequest.error})`;
  }
  return undefined;
}

function code(text: string): string {
  return `\`${firstLine(text, MAX_COMMAND).replaceAll("`", "'")}\``;
}

/** The first line with words on it, control characters as spaces, cut to `max` characters. */
export function firstLine(text: string, max = MAX_LINE): string {
  // eslint-disable-next-line no-control-regex
  const line = (text.split(/\r?\n/).find((l) => l.trim()) ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
