/**
 * Anthropic Messages API, streamed as raw events so every event is seen (thinking signatures,
 * redacted thinking, cache usage). The SDK never retries: retrying is the Task's business,
 * which shows a countdown and stops at once on cancel.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { ResolvedConfiguration } from "../config.js";
import { calculateCost, usageFromAnthropic, type NormalisedUsage } from "../cost.js";
import { ApiError } from "../errors.js";
import { pricesFor } from "../model-info.js";
import type { ApiMessage, ApiStreamChunk, ModelInfo, StopReason, ToolSpec } from "../types.js";
import { toAnthropicMessages, toAnthropicSystem, toAnthropicThinking, toAnthropicTools } from "./anthropic-format.js";
import { StreamingApiHandler, type ProviderRequest } from "./streaming-handler.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** The part of an Anthropic client the handler uses: Anthropic's own, or Bedrock's and Vertex's (same SDK). */
export interface MessagesClient {
  readonly messages: Pick<Anthropic["messages"], "create">;
}

/** Anthropic's own API with the key; undefined without one (createMessage then fails with `auth`). */
function anthropicClient(config: ResolvedConfiguration): MessagesClient | undefined {
  if (!config.apiKey) return undefined;
  return new Anthropic({
    apiKey: config.apiKey,
    // Explicit nulls and URL keep the SDK from picking up ANTHROPIC_* variables or profiles.
    authToken: null,
    baseURL: config.baseUrl ?? DEFAULT_BASE_URL,
    maxRetries: 0,
    ...(config.requestTimeoutMs ? { timeout: config.requestTimeoutMs } : {}),
  });
}

/**
 * The Messages API, on Anthropic's endpoint by default; Bedrock and Vertex pass their own client
 * (the same wire, signed their way) and name.
 */
export class AnthropicHandler extends StreamingApiHandler<Anthropic.RawMessageStreamEvent> {
  private readonly client: MessagesClient | undefined;

  constructor(config: ResolvedConfiguration, client: MessagesClient | undefined = anthropicClient(config), name = "Anthropic") {
    super(config, name);
    this.client = client;
  }

  get writesPromptCache(): boolean {
    return this.config.model.info.supportsPromptCache;
  }

  protected prepare(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): ProviderRequest<Anthropic.RawMessageStreamEvent> {
    const client = this.client;
    if (!client) throw new ApiError("auth", `${this.providerName}: no API key is set.`);
    if (messages.length === 0) throw new ApiError("bad_request", `${this.providerName}: there is no message to send.`);
    const params = this.buildParams(systemPrompt, messages, tools);
    const reader = new AnthropicEventReader(this.config.model.info, this.providerName);
    return {
      open: (signal) => client.messages.create(params, { signal }),
      isEndMarker: (event) => event.type === "message_stop",
      read: (event) => reader.read(event),
    };
  }

  private buildParams(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): Anthropic.MessageCreateParamsStreaming {
    const { id, info } = this.config.model;
    const cache = info.supportsPromptCache;
    const thinking = toAnthropicThinking(info, this.config.thinkingBudgetTokens);
    const system = toAnthropicSystem(systemPrompt, cache);
    return {
      model: id,
      // The catalogue's output limit (8192 for an unknown model); a manual budget is below it.
      max_tokens: info.maxOutputTokens,
      messages: toAnthropicMessages(messages, cache),
      stream: true,
      ...(system ? { system } : {}),
      ...(tools && tools.length > 0 ? { tools: toAnthropicTools(tools) } : {}),
      ...(thinking ? { thinking } : {}),
      // Steady answers where allowed: never with thinking (the API refuses a temperature then),
      // never to Claude 4.7+ (any non-default value is a 400), never to a model we do not know.
      ...(info.supportsTemperature && !thinking ? { temperature: 0 } : {}),
    };
  }
}

function anthropicStopReason(reason: string): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
    case "max_tokens":
      return reason;
    case "refusal":
      return "content_filter";
    default:
      return "other";
  }
}

/** Turns raw stream events into our chunks; tool calls are numbered 0, 1, … as OpenAI does. */
class AnthropicEventReader {
  private readonly toolIndexByBlock = new Map<number, number>();
  /** Chosen at message_start, when the prompt's size is known; output is billed at the same tier. */
  private prices: ReturnType<typeof pricesFor>;

  constructor(
    private readonly info: ModelInfo,
    private readonly provider: string,
  ) {
    this.prices = info;
  }

  *read(event: Anthropic.RawMessageStreamEvent): Generator<ApiStreamChunk> {
    switch (event.type) {
      case "message_start": {
        // Input and cache counts arrive here; the output count here is a placeholder.
        const usage = { ...usageFromAnthropic(event.message.usage), outputTokens: 0 };
        this.prices = pricesFor(this.info, usage);
        yield this.usage(usage);
        break;
      }
      case "message_delta":
        // The final output count; input counts repeated here would be counted twice.
        yield this.usage({ inputTokens: 0, outputTokens: event.usage.output_tokens });
        if (event.delta.stop_reason) yield { type: "stop", reason: anthropicStopReason(event.delta.stop_reason) };
        break;
      case "content_block_start":
        yield* this.blockStart(event);
        break;
      case "content_block_delta":
        yield* this.blockDelta(event);
        break;
      case "content_block_stop":
      case "message_stop":
        break;
    }
  }

  private *blockStart(event: Anthropic.RawContentBlockStartEvent): Generator<ApiStreamChunk> {
    const block = event.content_block;
    switch (block.type) {
      case "text":
        if (block.text) yield { type: "text", text: block.text };
        break;
      case "thinking":
        if (block.thinking) yield { type: "reasoning", reasoning: block.thinking };
        break;
      case "redacted_thinking":
        yield { type: "reasoning", reasoning: "", redactedData: block.data };
        break;
      case "tool_use": {
        const index = this.toolIndexByBlock.size;
        this.toolIndexByBlock.set(event.index, index);
        yield { type: "tool_calls", index, id: block.id, name: block.name, argumentsDelta: "" };
        break;
      }
      default:
        // Server-side tool blocks: we offer no server tools, so none should arrive.
        break;
    }
  }

  private *blockDelta(event: Anthropic.RawContentBlockDeltaEvent): Generator<ApiStreamChunk> {
    const delta = event.delta;
    switch (delta.type) {
      case "text_delta":
        yield { type: "text", text: delta.text };
        break;
      case "thinking_delta":
        yield { type: "reasoning", reasoning: delta.thinking };
        break;
      case "signature_delta":
        yield { type: "reasoning", reasoning: "", signature: delta.signature };
        break;
      case "input_json_delta": {
        const index = this.toolIndexByBlock.get(event.index);
        if (index === undefined) {
          throw new ApiError("unknown", `${this.provider}: tool input arrived for block ${event.index}, which is no tool call.`);
        }
        yield { type: "tool_calls", index, argumentsDelta: delta.partial_json };
        break;
      }
      case "citations_delta":
        break;
    }
  }

  private usage(usage: NormalisedUsage): ApiStreamChunk {
    return {
      type: "usage",
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheWriteTokens: usage.cacheWriteTokens ?? 0,
      cacheReadTokens: usage.cacheReadTokens ?? 0,
      totalCost: calculateCost(this.prices, usage),
    };
  }
}
