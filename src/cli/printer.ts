import type { AskMessage, ChatMessage, SayMessage } from "../shared/messages";
import { commandEndText, confinementShort } from "../shared/command-run";
import { focusChainProgress } from "../shared/focus-chain";
import { ledgerText } from "../shared/task-ledger";
import { openEstimate } from "../shared/usage";
import { visibleText } from "./visible-text";

/**
 * Prints the chat to a terminal as it happens: streamed text as it grows, everything else once
 * complete. A row announced again unchanged (an ask whose outcome was recorded) is not printed
 * again. With `json`, one JSON object per completed message. What the model, files, commands and
 * servers wrote is printed with its control characters made visible (visible-text.ts).
 */
export class CliPrinter {
  /** How much of each streaming message is already on screen. */
  private readonly printed = new Map<number, number>();
  /** What each completed row last printed (a request's estimate under its negated timestamp). */
  private readonly lines = new Map<number, string>();
  /** Streamed text left the cursor mid-line (a retry's notice must not run on from it). */
  private midLine = false;
  /** Status lines that came while prose was mid-line: printed once its line ends, never inside it. */
  private held: string[] = [];

  /** `checkpointStep`: a checkpoint row's number, as `tandem checkpoints list` numbers them (0: the task's start). */
  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly json: boolean,
    private readonly checkpointStep: (ts: number) => number | undefined = () => undefined,
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
    // A task's first request says what it will cost before it goes; every request is shown once it is over.
    const estimate = openEstimate(message);
    if (estimate) return this.writeOnce(-message.ts, `[request] estimate: ~${estimate.tokensIn} tokens in, $${estimate.cost.toFixed(4)} before its answer`);
    if (kind === "api_req_started" && (!message.apiRequest?.outcome || this.lines.has(message.ts))) return;
    const line = message.type === "say" && message.say === "checkpoint_created" ? checkpointLine(message, this.checkpointStep(message.ts)) : formatMessage(message);
    // A request's figures and a checkpoint only report: they wait for the prose's line to end.
    this.writeOnce(message.ts, line, !(kind === "api_req_started" || kind === "checkpoint_created"));
  }

  private writeOnce(ts: number, line: string, now = true): void {
    if (this.lines.get(ts) === line) return;
    this.lines.set(ts, line);
    if (this.midLine && !now) {
      this.held.push(line);
      return;
    }
    this.out.write(this.midLine ? "\n" : "");
    this.midLine = false;
    this.writeHeld();
    this.out.write(`${visibleText(line)}\n`);
  }

  private writeHeld(): void {
    for (const line of this.held.splice(0)) this.out.write(`${visibleText(line)}\n`);
  }

  private streamText(message: ChatMessage, prefix: string): void {
    const text = message.text ?? "";
    const done = this.printed.get(message.ts);
    if (done === undefined) this.out.write(prefix);
    const from = done ?? 0;
    // A carriage return last in a streaming text waits: the line feed that makes it a line end may come next.
    const end = message.partial && text.endsWith("\r") ? text.length - 1 : text.length;
    // Streamed text only grows; if a rewrite shrank it, print nothing until it grows again.
    if (end > from) {
      const chunk = text.slice(from, end);
      // Held status lines go in after the chunk's last line end, between lines of prose.
      const lineEnd = this.held.length > 0 ? chunk.lastIndexOf("\n") + 1 : 0;
      if (lineEnd > 0) {
        this.out.write(visibleText(chunk.slice(0, lineEnd)));
        this.writeHeld();
      }
      this.out.write(visibleText(chunk.slice(lineEnd)));
    }
    this.printed.set(message.ts, Math.max(from, end));
    this.midLine = true;
    if (!message.partial) {
      this.out.write("\n");
      this.midLine = false;
      this.printed.delete(message.ts);
      this.writeHeld();
    }
  }
}

/** "[checkpoint 2] a1b2c3d4": what `tandem checkpoints list` calls it, and the start of its id. */
function checkpointLine(message: SayMessage, step: number | undefined): string {
  const id = message.checkpoint?.hash.slice(0, 8) ?? "";
  return `[checkpoint${step === undefined ? "" : ` ${step}`}] ${id} saved (tandem checkpoints restore ${step ?? "N"} puts it back)`.replace("]  ", "] ");
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
    case "task_ledger":
      return `[ledger] ${message.ledger ? ledgerText(message.ledger) : text}`;
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
  if (result) {
    const whole = result.whole ? `; the model got it cut to size, the whole of it (${result.whole.chars.toLocaleString("en-US")} characters) is in ${result.whole.path}` : "";
    return `${head} ${result.isError ? "reported an error" : "returned"} (${result.parts.length} part${result.parts.length === 1 ? "" : "s"}${whole})`;
  }
  return head;
}
