/**
 * What a model answer cost, in USD.
 *
 * Providers count prompt tokens in one of two conventions:
 * - Anthropic: `input_tokens` EXCLUDES the cached prompt; cache writes
 *   (`cache_creation_input_tokens`) and cache reads (`cache_read_input_tokens`) are reported
 *   beside it, so the three add up to the whole prompt.
 * - OpenAI (and most OpenAI-compatible servers): `prompt_tokens` INCLUDES the cached part,
 *   reported again as `prompt_tokens_details.cached_tokens`; cache writes are not billed.
 *
 * `calculateCost` takes counts already normalised to the first convention (the provider does
 * that with the helpers below), so every token is priced exactly once.
 */
import type { ModelInfo } from "./types.js";

/** Token counts where `inputTokens` holds only the prompt tokens billed at the full input price. */
export interface NormalisedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens?: number;
  cacheReadTokens?: number;
}

type Prices = Pick<ModelInfo, "inputPrice" | "outputPrice" | "cacheWritePrice" | "cacheReadPrice">;

const PER_MILLION = 1_000_000;

export function calculateCost(info: Prices, usage: NormalisedUsage): number {
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const cacheRead = usage.cacheReadTokens ?? 0;
  for (const [name, value] of Object.entries({ ...usage, cacheWrite, cacheRead })) {
    if (typeof value === "number" && (!Number.isFinite(value) || value < 0)) {
      throw new RangeError(`calculateCost: ${name} must be a non-negative number, got ${value}`);
    }
  }
  return (
    (usage.inputTokens * info.inputPrice +
      usage.outputTokens * info.outputPrice +
      cacheWrite * info.cacheWritePrice +
      cacheRead * info.cacheReadPrice) /
    PER_MILLION
  );
}

/**
 * What a new prompt of `tokens` costs before its answer, for an estimate: written to the cache by
 * a handler that marks breakpoints (a task's first request writes all of it), else plain input.
 */
export function promptCost(info: Prices, tokens: number, writesCache: boolean): number {
  return (tokens * (writesCache ? info.cacheWritePrice : info.inputPrice)) / PER_MILLION;
}

/** Anthropic's counts are already in our convention; this only fills in the nulls. */
export function usageFromAnthropic(usage: {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): NormalisedUsage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
  };
}

/**
 * OpenAI's counts: the cached tokens are taken out of the prompt count. DeepSeek reports its
 * cache hits as `prompt_cache_hit_tokens`; OpenRouter adds the prompt tokens written to the
 * cache as `prompt_tokens_details.cache_write_tokens`, also inside `prompt_tokens`.
 */
export function usageFromOpenAi(usage: {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  prompt_cache_hit_tokens?: number | null;
}): NormalisedUsage {
  const prompt = usage.prompt_tokens ?? 0;
  // A server that reports more cached than prompt tokens is wrong; never go negative.
  const cacheRead = Math.min(prompt, usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0);
  const cacheWrite = Math.min(prompt - cacheRead, usage.prompt_tokens_details?.cache_write_tokens ?? 0);
  return {
    inputTokens: prompt - cacheRead - cacheWrite,
    outputTokens: usage.completion_tokens ?? 0,
    cacheWriteTokens: cacheWrite,
    cacheReadTokens: cacheRead,
  };
}
