/**
 * The settings a handler is built from, and their validation: a wrong setting fails when the
 * handler is built, with a message that names it, not later as an obscure HTTP 400.
 */
import { resolveModel, type ProviderId } from "./model-info.js";
import type { ModelInfo } from "./types.js";

export interface ApiConfiguration {
  provider: ProviderId;
  /** Required by Anthropic; optional for local OpenAI-compatible servers. */
  apiKey?: string;
  /** e.g. "http://localhost:11434/v1" for Ollama; the provider's own endpoint when absent. */
  baseUrl?: string;
  modelId?: string;
  contextWindowOverride?: number;
  /** Extended thinking budget (Anthropic models that support it); at least 1024. */
  thinkingBudgetTokens?: number;
  /** Longest silence before a stream counts as stalled (default 60 s). */
  streamIdleTimeoutMs?: number;
  /** Longest wait for the response headers, passed to the SDK (its default is 10 minutes). */
  requestTimeoutMs?: number;
}

export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;
/** Anthropic's minimum thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** A validated configuration with the model resolved. */
export interface ResolvedConfiguration {
  provider: ProviderId;
  apiKey?: string;
  baseUrl?: string;
  model: { id: string; info: ModelInfo };
  /** Only set when the model supports thinking. */
  thinkingBudgetTokens?: number;
  streamIdleTimeoutMs: number;
  requestTimeoutMs?: number;
}

export function resolveConfiguration(config: ApiConfiguration): ResolvedConfiguration {
  if (config.provider !== "anthropic" && config.provider !== "openai") {
    throw new Error(`Unknown API provider "${String(config.provider)}"; expected "anthropic" or "openai".`);
  }
  checkPositive("streamIdleTimeoutMs", config.streamIdleTimeoutMs);
  checkPositive("requestTimeoutMs", config.requestTimeoutMs);
  checkPositive("thinkingBudgetTokens", config.thinkingBudgetTokens);
  const baseUrl = config.baseUrl?.trim() || undefined;
  if (baseUrl !== undefined && !URL.canParse(baseUrl)) {
    throw new Error(`The API base URL "${baseUrl}" is not a valid URL.`);
  }
  const model = resolveModel(config.provider, config.modelId, config.contextWindowOverride);
  const budget = model.info.supportsThinking ? config.thinkingBudgetTokens : undefined;
  if (budget !== undefined && (budget < MIN_THINKING_BUDGET || budget >= model.info.maxOutputTokens)) {
    throw new Error(
      `thinkingBudgetTokens must be between ${MIN_THINKING_BUDGET} and ${model.info.maxOutputTokens - 1} ` +
        `for ${model.id}, got ${budget}.`,
    );
  }
  return {
    provider: config.provider,
    apiKey: config.apiKey?.trim() || undefined,
    baseUrl,
    model,
    thinkingBudgetTokens: budget,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    requestTimeoutMs: config.requestTimeoutMs,
  };
}

function checkPositive(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isFinite(value) || value <= 0)) {
    throw new Error(`${name} must be a positive number, got ${value}.`);
  }
}
