/**
 * The script the scripted model server replays: one turn per request, in order, whichever
 * wire protocol (Anthropic Messages, OpenAI chat.completions or OpenAI Responses) the request
 * arrives on.
 * Scripts are plain JSON so the standalone server can read them from a file.
 */

export interface ScriptedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheWriteTokens?: number;
  cacheReadTokens?: number;
}

export interface ScriptedToolCall {
  /** Defaults to a generated id. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
  /** Streamed as the arguments instead of `input` as JSON: e.g. JSON that an output limit cut off. */
  argumentsText?: string;
}

/** A normal answer. Its parts stream in this order: thinking, redacted thinking, text, tool calls. */
export interface AnswerTurn {
  readonly kind?: "answer";
  thinking?: { text: string; signature?: string };
  redactedThinking?: string;
  /** May contain XML tool calls; it is streamed as-is. */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Characters per streamed delta (default 16). */
  chunkSize?: number;
  /** Milliseconds between deltas (default 0). */
  delayMs?: number;
  /** Defaults to "tool_use" when toolCalls are present, else "end_turn". */
  stopReason?: string;
}

export type FaultKind =
  /** 429 with an optional retry-after header. */
  | "rate_limit"
  /** 500 with the provider's error body. */
  | "server_error"
  /** 529 (Anthropic) / 503 (OpenAI) overloaded. */
  | "overloaded"
  /** 401 invalid key. */
  | "auth"
  /** 400 malformed request. */
  | "bad_request"
  /**
   * 400 with the provider's real context-overflow body (see `flavor`); on the OpenAI Responses
   * endpoint, as OpenAI does, a `response.failed` event in the stream instead.
   */
  | "context_window_exceeded"
  /** Streams part of `text` then sends an error event in the stream (Responses: `response.failed`). */
  | "error_mid_stream"
  /** Streams part of `text` then destroys the socket. */
  | "drop_connection"
  /** Sends headers (and part of `text`) then sends nothing more, keeping the socket open. */
  | "stall"
  /** A well-formed stream with no content blocks and no text at all. */
  | "empty"
  /** Streams part of `text` then ends the response without `message_stop` / `[DONE]` / `response.completed`. */
  | "truncated";

export interface FaultTurn {
  readonly kind: "fault";
  fault: FaultKind;
  /** For rate_limit: value of the retry-after header, in seconds. */
  retryAfter?: number;
  /** For the mid-stream faults: the text streamed before the fault (default some words). */
  text?: string;
  /**
   * For context_window_exceeded on the OpenAI endpoints: which real error to send.
   * "openai" (default) or "openrouter" (a 400 on both endpoints). The Anthropic endpoint
   * always sends Anthropic's. For bad_request on the Responses endpoint, "unverified_org" sends
   * OpenAI's refusal of reasoning summaries to an organisation that is not verified.
   */
  flavor?: "openai" | "openrouter" | "unverified_org";
}

export type ScriptTurn = AnswerTurn | FaultTurn;

export interface RecordedRequest {
  /**
   * "anthropic" for POST /v1/messages, "openai" for POST /v1/chat/completions,
   * "openai-responses" for POST /v1/responses.
   */
  protocol: "anthropic" | "openai" | "openai-responses" | "vertex-anthropic" | "bedrock" | "gemini";
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  /** Index of the script turn that answered it (-1 when the script was exhausted). */
  turnIndex: number;
}
