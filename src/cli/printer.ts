import type { ChatMessage } from "../shared/messages";

/**
 * Prints the chat to a terminal as it happens: streamed text as it grows, everything else once
 * complete. With `json`, one JSON object per completed message.
 */
export class CliPrinter {
  /** How much of each streaming message is already on screen. */
  private readonly printed = new Map<number, number>();
  private readonly requestsShown = new Set<number>();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly json: boolean,
  ) {}

  show(message: ChatMessage): void {
    if (this.json) {
      if (!message.partial) this.out.write(`${JSON.stringify(message)}\n`);
      return;
    }
    const kind = message.type === "ask" ? message.ask : message.say;
    if (kind === "text" || kind === "reasoning") return this.streamText(message, kind === "reasoning" ? "thinking> " : "");
    if (message.partial) return;
    if (kind === "api_req_started") {
      // Shown once, when the request is over and its tokens and cost are known.
      if (!message.apiRequest?.outcome || this.requestsShown.has(message.ts)) return;
      this.requestsShown.add(message.ts);
    }
    this.out.write(`${formatMessage(message)}\n`);
  }

  private streamText(message: ChatMessage, prefix: string): void {
    const text = message.text ?? "";
    const done = this.printed.get(message.ts);
    if (done === undefined) this.out.write(prefix);
    const from = done ?? 0;
    // Streamed text only grows; if a rewrite shrank it, print nothing until it grows again.
    if (text.length > from) this.out.write(text.slice(from));
    this.printed.set(message.ts, Math.max(from, text.length));
    if (!message.partial) {
      this.out.write("\n");
      this.printed.delete(message.ts);
    }
  }
}

function formatMessage(message: ChatMessage): string {
  const text = message.text ?? "";
  if (message.type === "ask") {
    switch (message.ask) {
      case "tool":
        return `? approve ${message.tool?.tool ?? "tool"} ${message.tool?.path ?? ""}`.trimEnd();
      case "command":
        return `? run command: ${text}`;
      case "followup":
        return `? ${text}${message.options?.length ? `\n  options: ${message.options.join(" | ")}` : ""}`;
      default:
        return `? ${message.ask}: ${text}`;
    }
  }
  switch (message.say) {
    case "task":
      return `task: ${text}`;
    case "api_req_started": {
      const r = message.apiRequest;
      return r ? `[request] in ${r.tokensIn} out ${r.tokensOut} cache r/w ${r.cacheReads}/${r.cacheWrites} $${r.cost.toFixed(4)}` : "[request]";
    }
    case "tool":
      return `[${message.tool?.tool ?? "tool"}] ${message.tool?.path ?? ""}`.trimEnd();
    case "completion_result":
      return `\n✔ ${text}`;
    case "error":
      return `error: ${text}`;
    case "error_retry":
      return `retry: ${text}`;
    default:
      return `${message.say}: ${text}`;
  }
}
