import type { AskMessage, ChatMessage, SayMessage } from "../shared/messages";
import { commandEndText, confinementShort } from "../shared/command-run";
import { focusChainProgress } from "../shared/focus-chain";

/**
 * Prints the chat to a terminal as it happens: streamed text as it grows, everything else once
 * complete. A row announced again unchanged (an ask whose outcome was recorded) is not printed
 * again. With `json`, one JSON object per completed message.
 */
export class CliPrinter {
  /** How much of each streaming message is already on screen. */
  private readonly printed = new Map<number, number>();
  /** What each completed row last printed. */
  private readonly lines = new Map<number, string>();
  /** Streamed text left the cursor mid-line (a retry's notice must not run on from it). */
  private midLine = false;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly json: boolean,
  ) {}

  show(message: ChatMessage): void {
    if (this.json) {
      if (!message.partial) this.writeOnce(message.ts, JSON.stringify(message));
      return;
    }
    const kind = message.type === "ask" ? message.ask : message.say;
    if (kind === "text" || kind === "reasoning") return this.streamText(message, kind === "reasoning" ? "thinking> " : "");
    if (message.partial) return;
    // The result itself was just printed; the question after it is the prompt's to put.
    if (kind === "completion_result" && message.type === "ask" && !message.text) return;
    // A request is shown once, when it is over and its tokens and cost are known.
    if (kind === "api_req_started" && (!message.apiRequest?.outcome || this.lines.has(message.ts))) return;
    this.writeOnce(message.ts, formatMessage(message));
  }

  private writeOnce(ts: number, line: string): void {
    if (this.lines.get(ts) === line) return;
    this.lines.set(ts, line);
    this.out.write(`${this.midLine ? "\n" : ""}${line}\n`);
    this.midLine = false;
  }

  private streamText(message: ChatMessage, prefix: string): void {
    const text = message.text ?? "";
    const done = this.printed.get(message.ts);
    if (done === undefined) this.out.write(prefix);
    const from = done ?? 0;
    // Streamed text only grows; if a rewrite shrank it, print nothing until it grows again.
    if (text.length > from) this.out.write(text.slice(from));
    this.printed.set(message.ts, Math.max(from, text.length));
    this.midLine = true;
    if (!message.partial) {
      this.out.write("\n");
      this.midLine = false;
      this.printed.delete(message.ts);
    }
  }
}

function formatMessage(message: ChatMessage): string {
  return message.type === "ask" ? formatAsk(message) : formatSay(message);
}

function formatAsk(message: AskMessage): string {
  const text = message.text ?? "";
  switch (message.ask) {
    case "tool":
      return `? approve ${message.tool?.tool ?? "tool"} ${target(message)}`.trimEnd() + whyLine(message);
    case "command":
      return `? run command: ${text}${whyLine(message)}`;
    case "command_output":
      return `… ${text}`;
    case "followup":
      return `? ${text}${message.options?.length ? `\n  options: ${message.options.join(" | ")}` : ""}`;
    case "plan_mode_respond":
      return `\nplan:\n${text}${message.options?.length ? `\n  options: ${message.options.join(" | ")}` : ""}`;
    default:
      return `? ${message.ask}: ${text}`;
  }
}

function formatSay(message: SayMessage): string {
  const text = message.text ?? "";
  switch (message.say) {
    case "task":
      return `task: ${text}`;
    case "api_req_started": {
      const r = message.apiRequest;
      return r ? `[request] in ${r.tokensIn} out ${r.tokensOut} cache r/w ${r.cacheReads}/${r.cacheWrites} $${r.cost.toFixed(4)}` : "[request]";
    }
    case "tool":
      return toolLine(message);
    case "command_output":
      return commandOutputLines(message);
    case "completion_result":
      return `\n✔ ${text}`;
    case "error":
      return `error: ${text}`;
    case "error_retry":
      return `retry: ${text}`;
    case "hook":
      return `[hook] ${text}`;
    case "task_progress":
      return checklistLines(message);
    case "context_condensed": {
      const c = message.condense;
      return `context condensed${c ? `: ${c.tokensBefore} → ${c.tokensAfter} tokens` : ""}\n${indent(text)}`;
    }
    default:
      return `${message.say}: ${text}`;
  }
}

/** A command's output; its last row also says how it ended (naming a command gone on in the background). */
function commandOutputLines(message: ChatMessage): string {
  const run = message.command;
  const output = message.text ? `command_output: ${message.text}` : "";
  if (!run?.end) return output || "command_output:";
  const end = `[${run.background ? `${run.background}: ` : ""}${commandEndText(run.end)} · ${confinementShort(run.confinement)}]`;
  return output ? `${output}\n${end}` : end;
}

function indent(text: string): string {
  return text.split("\n").map((line) => `  ${line}`).join("\n");
}

/** Why Tandem asks (a guard file, a secret, outside the workspace), on a line of its own. */
function whyLine(message: ChatMessage): string {
  return message.tool?.why ? `\n  ${message.tool.why}` : "";
}

/** What a tool works on: its path, or an MCP server's tool or resource. */
function target(message: ChatMessage): string {
  const mcp = message.tool?.mcp;
  if (mcp) return `${mcp.server}/${mcp.tool ?? mcp.uri ?? ""}`;
  return message.tool?.path ?? "";
}

/** The checklist as it now stands, under who changed it and how far it is. */
function checklistLines(message: ChatMessage): string {
  const chain = message.focusChain;
  if (!chain) return `checklist: ${message.text ?? ""}`;
  const items = chain.items.map((item) => `\n  [${item.done ? "x" : " "}] ${item.text}`).join("");
  return `checklist ${focusChainProgress(chain.items)}${chain.by === "person" ? " (edited by the person)" : ""}:${items || " (empty)"}`;
}

function toolLine(message: ChatMessage): string {
  const head = `[${message.tool?.tool ?? "tool"}] ${target(message)}`.trimEnd();
  // A call the answer ended inside (or the mode refused) did nothing: say so, or the line reads as done.
  if (message.tool?.cutOff || message.tool?.blocked || message.tool?.refusedIn) return `${head}: ${message.text ?? ""}`;
  const result = message.tool?.mcp?.result;
  if (result) return `${head} ${result.isError ? "reported an error" : "returned"} (${result.parts.length} part${result.parts.length === 1 ? "" : "s"})`;
  return head;
}
