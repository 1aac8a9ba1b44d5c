/**
 * How full the context window is, and when Tandem acts on it. The measure is the previous
 * request's reported usage (everything it took of the window: input, cache reads and writes,
 * output) plus what was added since; the limit is the stricter of 80 % of the window and the
 * window less the model's output limit, so the next answer always has room.
 */
import type { ApiMessage, ModelInfo } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { contextTokens } from "../../shared/usage";

/** The share of the window Tandem lets a request fill before it condenses or truncates. */
export const CONDENSE_THRESHOLD = 0.8;

/**
 * The tokens a request may take before Tandem acts. The room kept for the answer is the model's
 * output limit, but at most half the window: a small override (the output limit is cut to the
 * window, model-info.ts) would otherwise leave no room at all and condense every round.
 */
export function contextLimit(info: Pick<ModelInfo, "contextWindow" | "maxOutputTokens">): number {
  const reserve = Math.min(info.maxOutputTokens, Math.floor(info.contextWindow / 2));
  return Math.min(Math.floor(info.contextWindow * CONDENSE_THRESHOLD), info.contextWindow - reserve);
}

/**
 * The latest request's usage, read from the end of the chat (so it costs the rows since that
 * request). Undefined when no request reported any since the conversation was last condensed or
 * truncated: those figures describe a conversation that is no longer sent.
 */
export function latestUsage(chat: readonly ChatMessage[]): number | undefined {
  for (let i = chat.length - 1; i >= 0; i--) {
    const message = chat[i];
    if (message?.type !== "say") continue;
    if (message.say === "context_condensed" || message.say === "context_truncated") return undefined;
    if (message.say !== "api_req_started" || !message.apiRequest) continue;
    const used = contextTokens(message.apiRequest);
    if (used > 0) return used;
  }
  return undefined;
}

/** A rough token count (4 characters a token), for what no provider has counted yet. */
export function estimateTokens(messages: readonly ApiMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message.content).length;
  return Math.ceil(chars / 4);
}
