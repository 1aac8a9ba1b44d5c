/**
 * OpenAI chat.completions streaming, for OpenAI itself and any OpenAI-compatible server
 * chosen by base URL (OpenRouter, Ollama, LM Studio, vLLM, DeepSeek, llama.cpp). The SDK never
 * retries: retrying is the Task's business.
 */
import type OpenAI from "openai";
import type { ResolvedConfiguration } from "../config.js";
import { calculateCost, usageFromOpenAi } from "../cost.js";
import { ApiError } from "../errors.js";
import { pricesFor } from "../model-info.js";
import type { ApiMessage, ApiStreamChunk, StopReason, ToolSpec } from "../types.js";
import { toOpenAiMessages, toOpenAiTools } from "./openai-format.js";
import { createOpenAiClient, openAiServerName } from "./openai-client.js";
import { StreamingApiHandler, type ProviderRequest } from "./streaming-handler.js";

/** Fields compatible servers add to a delta: DeepSeek/vLLM `reasoning_content`, OpenRouter/Ollama `reasoning`. */
type Delta = OpenAI.ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

export class OpenAiHandler extends StreamingApiHandler<OpenAI.ChatCompletionChunk> {
  private readonly client: OpenAI;

  constructor(config: ResolvedConfiguration) {
    super(config, openAiServerName(config));
    this.client = createOpenAiClient(config);
  }

  protected prepare(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): ProviderRequest<OpenAI.ChatCompletionChunk> {
    if (messages.length === 0) throw new ApiError("bad_request", `${this.providerName}: there is no message to send.`);
    const params = this.buildParams(systemPrompt, messages, tools);
    return {
      open: (signal) => this.client.chat.completions.create(params, { signal }),
      // The SDK swallows `[DONE]`; a choice with a finish_reason is the proof of a whole answer.
      isEndMarker: (chunk) => (chunk.choices ?? []).some((choice) => choice.finish_reason != null),
      read: (chunk) => this.read(chunk),
    };
  }

  private buildParams(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): OpenAI.ChatCompletionCreateParamsStreaming {
    const { id, info } = this.config.model;
    return {
      model: id,
      messages: toOpenAiMessages(systemPrompt, messages),
      stream: true,
      stream_options: { include_usage: true },
      ...(tools && tools.length > 0 ? { tools: toOpenAiTools(tools) } : {}),
      // Reasoning models (GPT-6 at its default effort, DeepSeek thinking) refuse or ignore a
      // temperature; an unknown model may be one of them, so it gets none either. Nothing asks
      // for reasoning here: these models reason by themselves and chat.completions has no budget.
      ...(info.supportsTemperature ? { temperature: 0 } : {}),
    };
  }

  private *read(chunk: OpenAI.ChatCompletionChunk): Generator<ApiStreamChunk> {
    const delta = chunk.choices?.[0]?.delta as Delta | undefined;
    if (delta) {
      const reasoning = delta.reasoning_content || delta.reasoning;
      if (reasoning) yield { type: "reasoning", reasoning };
      if (delta.content) yield { type: "text", text: delta.content };
      for (const call of delta.tool_calls ?? []) {
        yield {
          type: "tool_calls",
          index: call.index,
          ...(call.id ? { id: call.id } : {}),
          ...(call.function?.name ? { name: call.function.name } : {}),
          argumentsDelta: call.function?.arguments ?? "",
        };
      }
    }
    const finish = chunk.choices?.[0]?.finish_reason;
    if (finish) yield { type: "stop", reason: openAiStopReason(finish) };
    if (chunk.usage) {
      const usage = usageFromOpenAi(chunk.usage);
      const prices = pricesFor(this.config.model.info, usage);
      yield { type: "usage", ...usage, totalCost: calculateCost(prices, usage) };
    }
  }
}

function openAiStopReason(reason: string): StopReason {
  switch (reason) {
    case "stop":
      return "end_turn";
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "content_filter";
    default:
      return "other";
  }
}
