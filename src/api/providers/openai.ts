/**
 * OpenAI chat.completions streaming, for OpenAI itself and any OpenAI-compatible server
 * chosen by base URL (OpenRouter, Ollama, LM Studio, vLLM, DeepSeek, llama.cpp). The SDK never
 * retries: retrying is the Task's business.
 */
import OpenAI from "openai";
import { classifyError } from "../classify-error.js";
import type { ResolvedConfiguration } from "../config.js";
import { calculateCost, usageFromOpenAi } from "../cost.js";
import { ApiError } from "../errors.js";
import { pricesFor } from "../model-info.js";
import { guardStream, InFlightRequests } from "../stream-guard.js";
import type { ApiHandler, ApiMessage, ApiStream, ApiStreamChunk, ModelInfo, ToolSpec } from "../types.js";
import { toOpenAiMessages, toOpenAiTools } from "./openai-format.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** The SDK refuses an empty key, and local servers ignore whatever is sent. */
const PLACEHOLDER_KEY = "not-needed";

/** Fields compatible servers add to a delta: DeepSeek/vLLM `reasoning_content`, OpenRouter/Ollama `reasoning`. */
type Delta = OpenAI.ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

export class OpenAiHandler implements ApiHandler {
  private readonly client: OpenAI;
  private readonly inFlight = new InFlightRequests();
  private readonly providerName: string;

  constructor(private readonly config: ResolvedConfiguration) {
    const baseURL = config.baseUrl ?? DEFAULT_BASE_URL;
    this.providerName = config.baseUrl ? `OpenAI-compatible server at ${new URL(baseURL).host}` : "OpenAI";
    this.client = new OpenAI({
      apiKey: config.apiKey ?? PLACEHOLDER_KEY,
      baseURL,
      // Explicit nulls keep the SDK from picking up OPENAI_* variables of the environment.
      organization: null,
      project: null,
      maxRetries: 0,
      ...(config.requestTimeoutMs ? { timeout: config.requestTimeoutMs } : {}),
    });
  }

  getModel(): { id: string; info: ModelInfo } {
    return this.config.model;
  }

  abort(): void {
    this.inFlight.abortAll();
  }

  createMessage(systemPrompt: string, messages: readonly ApiMessage[], tools?: readonly ToolSpec[]): ApiStream {
    // Taken now, not when iteration starts, so an abort() in between still reaches it.
    const controller = this.inFlight.begin();
    return this.stream(controller, systemPrompt, messages, tools);
  }

  private async *stream(
    controller: AbortController,
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): ApiStream {
    const provider = this.providerName;
    try {
      if (messages.length === 0) throw new ApiError("bad_request", `${provider}: there is no message to send.`);
      const params = this.buildParams(systemPrompt, messages, tools);
      const chunks = guardStream<OpenAI.ChatCompletionChunk>(
        (signal) => this.client.chat.completions.create(params, { signal }),
        {
          controller,
          idleTimeoutMs: this.config.streamIdleTimeoutMs,
          provider,
          // The SDK swallows `[DONE]`; a choice with a finish_reason is the proof of a whole answer.
          isEndMarker: (chunk) => (chunk.choices ?? []).some((choice) => choice.finish_reason != null),
          classify: (error, aborted) => classifyError(error, { provider, aborted }),
        },
      );
      for await (const chunk of chunks) {
        yield* this.read(chunk);
      }
    } finally {
      this.inFlight.end(controller);
    }
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
    if (chunk.usage) {
      const usage = usageFromOpenAi(chunk.usage);
      const prices = pricesFor(this.config.model.info, usage);
      yield { type: "usage", ...usage, totalCost: calculateCost(prices, usage) };
    }
  }
}
