/**
 * OpenAI's Responses API (POST /v1/responses, streaming). GPT-6 and GPT-5.4+ refuse function
 * tools together with reasoning on chat.completions, so native tool calls with them go here.
 * As with chat.completions, the SDK never retries: retrying is the Task's business.
 */
import OpenAI from "openai";
import { classifyError } from "../classify-error.js";
import type { ResolvedConfiguration } from "../config.js";
import { calculateCost, usageFromOpenAi } from "../cost.js";
import { ApiError } from "../errors.js";
import { pricesFor } from "../model-info.js";
import type { ApiMessage, ApiStreamChunk, StopReason, ToolSpec } from "../types.js";
import { toResponsesInput, toResponsesTools } from "./openai-responses-format.js";
import { createOpenAiClient, openAiServerName } from "./openai-client.js";
import { StreamingApiHandler, type ProviderRequest } from "./streaming-handler.js";

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

export class OpenAiResponsesHandler extends StreamingApiHandler<StreamEvent> {
  private readonly client: OpenAI;
  /** Turned off for good once the organisation is refused reasoning summaries. */
  private askForSummaries = true;

  constructor(config: ResolvedConfiguration) {
    super(config, openAiServerName(config));
    this.client = createOpenAiClient(config);
  }

  protected prepare(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): ProviderRequest<StreamEvent> {
    if (messages.length === 0) throw new ApiError("bad_request", `${this.providerName}: there is no message to send.`);
    const params = () => this.buildParams(systemPrompt, messages, tools);
    return {
      open: (signal) => this.openStream(params, signal),
      // A cut-off answer (`response.incomplete`, e.g. max_output_tokens) still ends normally, as
      // chat.completions' finish_reason "length" does: the Task judges what arrived.
      isEndMarker: (event) => event.type === "response.completed" || event.type === "response.incomplete",
      read: (event) => this.read(event),
    };
  }

  /**
   * OpenAI gives reasoning summaries only to verified organisations and answers 400 to the rest.
   * Summaries are nice to have, not worth a failed task: ask once, then go on without them.
   */
  private async openStream(params: () => OpenAI.Responses.ResponseCreateParamsStreaming, signal: AbortSignal) {
    try {
      return await this.client.responses.create(params(), { signal });
    } catch (error) {
      if (!this.askForSummaries || !refusesReasoningSummaries(error)) throw error;
      this.askForSummaries = false;
      return this.client.responses.create(params(), { signal });
    }
  }

  private buildParams(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): OpenAI.Responses.ResponseCreateParamsStreaming {
    const { id, info } = this.config.model;
    let input: OpenAI.Responses.ResponseInput;
    try {
      input = toResponsesInput(messages);
    } catch (error) {
      throw new ApiError("bad_request", `${this.providerName}: ${(error as Error).message}`, { cause: error });
    }
    return {
      model: id,
      ...(systemPrompt.trim() === "" ? {} : { instructions: systemPrompt }),
      input,
      stream: true,
      // Nothing is kept on OpenAI's side; every request carries the whole history.
      store: false,
      ...(tools && tools.length > 0 ? { tools: toResponsesTools(tools) } : {}),
      // Summaries are what the Responses API shows of the reasoning; the effort stays the model's default.
      ...(info.thinking !== "none" && this.askForSummaries ? { reasoning: { summary: "auto" } } : {}),
      // Reasoning models refuse a temperature at their default effort; see openai.ts.
      ...(info.supportsTemperature ? { temperature: 0 } : {}),
    };
  }

  private *read(event: StreamEvent): Generator<ApiStreamChunk> {
    switch (event.type) {
      case "response.output_text.delta":
      case "response.refusal.delta":
        // A refusal is the model's answer too; the person must see it.
        yield { type: "text", text: event.delta };
        return;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        yield { type: "reasoning", reasoning: event.delta };
        return;
      case "response.reasoning_summary_part.added":
        // Summaries come in paragraphs; keep them apart.
        if (event.summary_index > 0) yield { type: "reasoning", reasoning: "\n\n" };
        return;
      case "response.output_item.added":
        if (event.item.type === "function_call") {
          const { call_id: id, name } = event.item;
          yield { type: "tool_calls", index: event.output_index, id, name, argumentsDelta: "" };
        }
        return;
      case "response.function_call_arguments.delta":
        yield { type: "tool_calls", index: event.output_index, argumentsDelta: event.delta };
        return;
      case "response.completed":
        yield* this.usage(event.response.usage);
        yield { type: "stop", reason: "end_turn" };
        return;
      case "response.incomplete":
        yield* this.usage(event.response.usage);
        yield { type: "stop", reason: incompleteReason(event.response.incomplete_details?.reason) };
        return;
      case "response.failed":
        throw this.failure(event.response.error ?? { code: null, message: `the response failed (${event.response.id})` });
      case "error":
        // The flat form (code and message at the top). One whose `error` field holds the
        // details never gets here: the SDK throws it as an APIError, which the guard classifies.
        throw this.failure(event);
      default:
        return;
    }
  }

  private *usage(usage: OpenAI.Responses.ResponseUsage | null | undefined): Generator<ApiStreamChunk> {
    if (!usage) return;
    const normalised = usageFromOpenAi({
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      prompt_tokens_details: { cached_tokens: usage.input_tokens_details?.cached_tokens },
    });
    const prices = pricesFor(this.config.model.info, normalised);
    yield { type: "usage", ...normalised, totalCost: calculateCost(prices, normalised) };
  }

  /**
   * A failure reported inside the stream, as the SDK's own error with no status, so the shared
   * classifier decides its kind (a `context_length_exceeded` code is a context overflow).
   */
  private failure(error: { code?: string | null; message: string; param?: string | null }): ApiError {
    const body = { message: error.message, code: error.code ?? null, param: error.param ?? null, type: errorTypeOf(error.code) };
    return classifyError(new OpenAI.APIError(undefined, body, error.message, undefined), { provider: this.providerName });
  }
}

function refusesReasoningSummaries(error: unknown): boolean {
  return error instanceof OpenAI.APIError && error.status === 400 && error.param === "reasoning.summary";
}

/**
 * The Responses API reports failures by `code` only; the classifier also reads a `type`.
 * Codes it already knows (context_length_exceeded, rate_limit_exceeded, insufficient_quota)
 * need none; unknown codes get none and stay "unknown", which may be retried.
 */
function errorTypeOf(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  if (code === "server_error" || code === "vector_store_timeout") return "server_error";
  if (/overloaded/i.test(code)) return "overloaded_error";
  if (code === "invalid_prompt" || code === "bio_policy" || code === "data_residency_mismatch" || /image/.test(code)) {
    return "invalid_request_error";
  }
  return undefined;
}

function incompleteReason(reason: string | undefined): StopReason {
  if (reason === "max_output_tokens") return "max_tokens";
  return reason === "content_filter" ? "content_filter" : "other";
}
