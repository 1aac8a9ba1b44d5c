/**
 * What we know about the models people commonly pick: context window, output limit, prices
 * (USD per million tokens, as published by the providers in 2025; they change, so treat them
 * as estimates) and capabilities. An unknown model gets conservative defaults rather than an
 * error, because OpenAI-compatible servers serve models under any name.
 */
import type { ModelInfo } from "./types.js";

export type ProviderId = "anthropic" | "openai";

function anthropic(
  contextWindow: number,
  maxOutputTokens: number,
  prices: [input: number, output: number, cacheWrite: number, cacheRead: number],
  supportsThinking: boolean,
): ModelInfo {
  const [inputPrice, outputPrice, cacheWritePrice, cacheReadPrice] = prices;
  return {
    contextWindow,
    maxOutputTokens,
    inputPrice,
    outputPrice,
    cacheWritePrice,
    cacheReadPrice,
    supportsImages: true,
    supportsPromptCache: true,
    supportsThinking,
  };
}

/** OpenAI caches prompts by itself: writes are free, reads are discounted. */
function openai(
  contextWindow: number,
  maxOutputTokens: number,
  prices: [input: number, output: number, cacheRead: number],
  supportsImages = true,
): ModelInfo {
  const [inputPrice, outputPrice, cacheReadPrice] = prices;
  return {
    contextWindow,
    maxOutputTokens,
    inputPrice,
    outputPrice,
    cacheWritePrice: 0,
    cacheReadPrice,
    supportsImages,
    supportsPromptCache: true,
    // Reasoning of OpenAI-compatible models arrives by itself; there is no budget to send.
    supportsThinking: false,
  };
}

export const ANTHROPIC_MODELS: Readonly<Record<string, ModelInfo>> = {
  "claude-sonnet-4-5": anthropic(200_000, 64_000, [3, 15, 3.75, 0.3], true),
  "claude-sonnet-4-0": anthropic(200_000, 64_000, [3, 15, 3.75, 0.3], true),
  // The dated id of Sonnet 4 ("claude-sonnet-4-20250514") has no "-0".
  "claude-sonnet-4": anthropic(200_000, 64_000, [3, 15, 3.75, 0.3], true),
  "claude-opus-4-1": anthropic(200_000, 32_000, [15, 75, 18.75, 1.5], true),
  "claude-haiku-4-5": anthropic(200_000, 64_000, [1, 5, 1.25, 0.1], true),
  "claude-3-7-sonnet": anthropic(200_000, 64_000, [3, 15, 3.75, 0.3], true),
  "claude-3-5-haiku": anthropic(200_000, 8_192, [0.8, 4, 1, 0.08], false),
};

export const OPENAI_MODELS: Readonly<Record<string, ModelInfo>> = {
  "gpt-4.1": openai(1_047_576, 32_768, [2, 8, 0.5]),
  "gpt-4.1-mini": openai(1_047_576, 32_768, [0.4, 1.6, 0.1]),
  "gpt-4o": openai(128_000, 16_384, [2.5, 10, 1.25]),
  "gpt-4o-mini": openai(128_000, 16_384, [0.15, 0.6, 0.075]),
  "o4-mini": openai(200_000, 100_000, [1.1, 4.4, 0.275]),
  "o3": openai(200_000, 100_000, [2, 8, 0.5]),
  // DeepSeek's cache hits are priced like OpenAI's cached input (V3.2 prices).
  "deepseek-chat": openai(128_000, 8_192, [0.28, 0.42, 0.028], false),
  "deepseek-reasoner": openai(128_000, 64_000, [0.28, 0.42, 0.028], false),
};

export const DEFAULT_MODEL_ID: Readonly<Record<ProviderId, string>> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-4.1",
};

/** For a model we know nothing about: a common window, no prices, no claims. */
export const UNKNOWN_MODEL_INFO: Readonly<ModelInfo> = {
  contextWindow: 128_000,
  maxOutputTokens: 8_192,
  inputPrice: 0,
  outputPrice: 0,
  cacheWritePrice: 0,
  cacheReadPrice: 0,
  supportsImages: false,
  supportsPromptCache: false,
  supportsThinking: false,
};

const CATALOGUE: Readonly<Record<ProviderId, Readonly<Record<string, ModelInfo>>>> = {
  anthropic: ANTHROPIC_MODELS,
  openai: OPENAI_MODELS,
};

/**
 * Finds a model by id: exact, then without a date suffix ("claude-sonnet-4-5-20250929",
 * "gpt-4o-2024-08-06"), then without a router's vendor prefix ("openai/gpt-4o",
 * "anthropic/claude-3-7-sonnet"), then without a local server's tag ("deepseek-chat:latest").
 */
function lookUp(provider: ProviderId, modelId: string): ModelInfo | undefined {
  const models = CATALOGUE[provider];
  const bare = modelId.replace(/^[\w.-]+\//, "").replace(/(-\d{4}-?\d{2}-?\d{2}|-latest)$/, "");
  for (const candidate of [modelId, bare]) {
    const info = models[candidate];
    if (info) return info;
  }
  const stem = bare.replace(/:.*$/, "");
  return models[stem];
}

/** The model to use and what we know of it; `contextWindowOverride` wins over the catalogue. */
export function resolveModel(
  provider: ProviderId,
  modelId?: string,
  contextWindowOverride?: number,
): { id: string; info: ModelInfo } {
  if (contextWindowOverride !== undefined && (!Number.isInteger(contextWindowOverride) || contextWindowOverride <= 0)) {
    throw new RangeError(`contextWindowOverride must be a positive whole number, got ${contextWindowOverride}`);
  }
  const id = modelId?.trim() || DEFAULT_MODEL_ID[provider];
  const known = lookUp(provider, id);
  const info: ModelInfo = { ...(known ?? UNKNOWN_MODEL_INFO) };
  if (contextWindowOverride !== undefined) {
    info.contextWindow = contextWindowOverride;
    // An output limit larger than the whole window would make every request fail.
    info.maxOutputTokens = Math.min(info.maxOutputTokens, contextWindowOverride);
  }
  return { id, info };
}
