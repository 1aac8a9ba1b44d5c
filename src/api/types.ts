/**
 * The provider-neutral contract between the agent core and a model provider.
 *
 * The conversation history is kept in Anthropic's block shape (the richest of the two
 * wire formats); the OpenAI provider converts it on the way out. Nothing here imports
 * a provider SDK, so the core can depend on this file alone.
 */

/** A plain text block. */
export interface TextBlock {
  readonly type: "text";
  text: string;
}

/** A base64 image the person attached. */
export interface ImageBlock {
  readonly type: "image";
  /** e.g. "image/png" */
  mediaType: string;
  /** Base64 data without a `data:` prefix. */
  data: string;
}

/** A native tool call the model made (Anthropic `tool_use`, OpenAI `tool_calls[i]`). */
export interface ToolUseBlock {
  readonly type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The answer to a native tool call; must follow its `tool_use` in the next user message. */
export interface ToolResultBlock {
  readonly type: "tool_result";
  toolUseId: string;
  content: string | (TextBlock | ImageBlock)[];
  isError?: boolean;
}

/** Extended-thinking text, kept with its signature so it can be sent back verbatim. */
export interface ThinkingBlock {
  readonly type: "thinking";
  thinking: string;
  signature?: string;
}

/** Thinking the provider encrypted; only its opaque data is kept and replayed. */
export interface RedactedThinkingBlock {
  readonly type: "redacted_thinking";
  data: string;
}

export type ContentBlock =
  | TextBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock;

export interface ApiMessage {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

/** A tool offered to the model for native tool calling. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input object. */
  inputSchema: Record<string, unknown>;
}

/** Streamed answer text. */
export interface ApiStreamTextChunk {
  readonly type: "text";
  text: string;
}

/**
 * Reasoning ("thinking") as it streams. `reasoning` carries visible text; `signature`
 * arrives once at the end of an Anthropic thinking block; `redactedData` is a whole
 * redacted block. A chunk may carry any one of the three.
 */
export interface ApiStreamReasoningChunk {
  readonly type: "reasoning";
  reasoning: string;
  signature?: string;
  redactedData?: string;
}

/**
 * Token accounting. Chunks are deltas to add up: providers may report input tokens at the
 * start of the stream and output tokens at its end.
 * - `inputTokens`: prompt tokens billed at the full input price (cached tokens excluded,
 *   whichever provider convention produced them).
 * - `outputTokens`: generated tokens, reasoning included.
 * - `cacheWriteTokens`: prompt tokens written to the provider's prompt cache.
 * - `cacheReadTokens`: prompt tokens served from the prompt cache.
 * - `totalCost`: USD for the tokens in this chunk, when the handler knows the prices.
 */
export interface ApiStreamUsageChunk {
  readonly type: "usage";
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens?: number;
  cacheReadTokens?: number;
  totalCost?: number;
}

/**
 * A fragment of a native tool call. Fragments with the same `index` belong to one call:
 * the first carries `id` and `name`, later ones append `argumentsDelta` (JSON text).
 */
export interface ApiStreamToolCallsChunk {
  readonly type: "tool_calls";
  index: number;
  id?: string;
  name?: string;
  argumentsDelta: string;
}

/**
 * Why the model stopped, normalised across providers. Sent once, near the end of the stream.
 * `max_tokens`: the answer hit the output limit, so whatever it was writing is cut off.
 */
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "content_filter" | "other";

export interface ApiStreamStopChunk {
  readonly type: "stop";
  reason: StopReason;
}

export type ApiStreamChunk =
  | ApiStreamTextChunk
  | ApiStreamReasoningChunk
  | ApiStreamUsageChunk
  | ApiStreamToolCallsChunk
  | ApiStreamStopChunk;

/**
 * One model answer as an async generator. It ends normally only after the provider's own
 * end marker arrived; every failure is thrown as an `ApiError` (see errors.ts). Leaving a
 * `for await` early aborts the HTTP request.
 */
export type ApiStream = AsyncGenerator<ApiStreamChunk, void, undefined>;

/**
 * How a model reasons: `"none"` not at all; `"manual"` within a token budget the caller sets
 * (Anthropic `thinking: {type: "enabled", budget_tokens}`); `"adaptive"` deciding by itself how
 * much (Anthropic `thinking: {type: "adaptive"}`, OpenAI reasoning models, DeepSeek).
 */
export type ThinkingMode = "none" | "manual" | "adaptive";

/** Prices (USD per million tokens) that replace the normal ones for a whole request with a long prompt. */
export interface LongPromptPricing {
  /** The prompt (input + cache writes + cache reads) must be longer than this for these prices to apply. */
  aboveTokens: number;
  inputPrice: number;
  outputPrice: number;
  cacheWritePrice: number;
  cacheReadPrice: number;
}

export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens. */
  inputPrice: number;
  outputPrice: number;
  cacheWritePrice: number;
  cacheReadPrice: number;
  supportsImages: boolean;
  supportsPromptCache: boolean;
  /** Whether the model reasons at all; always `thinking !== "none"`. */
  supportsThinking: boolean;
  thinking: ThinkingMode;
  /** Whether the API accepts a non-default `temperature`; newer reasoning models answer 400. */
  supportsTemperature: boolean;
  /** Set for models billed at higher rates once the prompt is long. */
  longPromptPricing?: LongPromptPricing;
  /**
   * OpenAI models that refuse function tools with reasoning on /v1/chat/completions (GPT-6,
   * GPT-5.4 and later): on OpenAI's own endpoint they are sent to /v1/responses.
   */
  needsResponsesApi?: boolean;
}

export interface ApiHandler {
  createMessage(systemPrompt: string, messages: readonly ApiMessage[], tools?: readonly ToolSpec[]): ApiStream;
  getModel(): { id: string; info: ModelInfo };
  /** It marks cache breakpoints (Claude's Messages API): a prompt not yet cached is billed as cache writes. */
  readonly writesPromptCache?: boolean;
  /** Abort the request in flight, if any; its stream then throws an `aborted` ApiError. */
  abort(): void;
}
