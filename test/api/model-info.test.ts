/**
 * Model lookup, unknown-model defaults, the context window override, and cost under both
 * providers' token conventions.
 */
import { describe, expect, it } from "vitest";
import { calculateCost, usageFromAnthropic, usageFromOpenAi } from "../../src/api/cost.js";
import { resolveModel, UNKNOWN_MODEL_INFO } from "../../src/api/model-info.js";

describe("resolveModel", () => {
  it("finds known models by alias, dated id, router prefix and local tag", () => {
    const sonnet = resolveModel("anthropic", "claude-sonnet-4-5");
    expect(sonnet.info).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15 });
    expect(sonnet.info.supportsThinking && sonnet.info.supportsPromptCache).toBe(true);
    expect(resolveModel("anthropic", "claude-sonnet-4-5-20250929").info).toEqual(sonnet.info);
    expect(resolveModel("anthropic", "claude-sonnet-4-20250514").info.maxOutputTokens).toBe(64_000);
    expect(resolveModel("openai", "gpt-4o-2024-08-06").info.contextWindow).toBe(128_000);
    expect(resolveModel("openai", "openai/gpt-4.1").info.inputPrice).toBe(2);
    expect(resolveModel("openai", "deepseek-chat:latest").info.outputPrice).toBe(0.42);
  });

  it("keeps the id it was given, dated or not", () => {
    expect(resolveModel("anthropic", "claude-opus-4-1-20250805").id).toBe("claude-opus-4-1-20250805");
  });

  it("uses the provider's default model when none is set", () => {
    expect(resolveModel("anthropic").id).toBe("claude-sonnet-4-5");
    expect(resolveModel("openai", "  ").id).toBe("gpt-4.1");
  });

  it("gives an unknown model safe defaults: 128k window, 8192 output, no price, no claims", () => {
    const { id, info } = resolveModel("openai", "my-local-llama");
    expect(id).toBe("my-local-llama");
    expect(info).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 8_192,
      inputPrice: 0,
      outputPrice: 0,
      cacheWritePrice: 0,
      cacheReadPrice: 0,
      supportsImages: false,
      supportsPromptCache: false,
      supportsThinking: false,
    });
    expect(UNKNOWN_MODEL_INFO).toEqual(info);
  });

  it("applies a context window override without changing the catalogue", () => {
    const small = resolveModel("openai", "my-local-llama", 4_096);
    expect(small.info.contextWindow).toBe(4_096);
    expect(small.info.maxOutputTokens).toBe(4_096);
    expect(resolveModel("anthropic", "claude-haiku-4-5", 100_000).info).toMatchObject({
      contextWindow: 100_000,
      maxOutputTokens: 64_000,
    });
    expect(resolveModel("anthropic", "claude-haiku-4-5").info.contextWindow).toBe(200_000);
    expect(resolveModel("openai", "my-local-llama").info.contextWindow).toBe(128_000);
  });

  it("rejects a nonsensical override", () => {
    expect(() => resolveModel("openai", "x", 0)).toThrow(/contextWindowOverride/);
    expect(() => resolveModel("openai", "x", 1.5)).toThrow(/contextWindowOverride/);
  });
});

describe("cost", () => {
  const prices = { inputPrice: 3, outputPrice: 15, cacheWritePrice: 3.75, cacheReadPrice: 0.3 };

  it("prices each kind of token once, per million", () => {
    expect(calculateCost(prices, { inputTokens: 1_000_000, outputTokens: 0 })).toBe(3);
    expect(calculateCost(prices, { inputTokens: 0, outputTokens: 2_000_000 })).toBe(30);
    expect(
      calculateCost(prices, { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 1_000_000, cacheReadTokens: 1_000_000 }),
    ).toBeCloseTo(4.05, 10);
  });

  it("Anthropic's convention: input excludes the cache, so it is taken as is", () => {
    const usage = usageFromAnthropic({
      input_tokens: 1200,
      output_tokens: 300,
      cache_creation_input_tokens: 800,
      cache_read_input_tokens: null,
    });
    expect(usage).toEqual({ inputTokens: 1200, outputTokens: 300, cacheWriteTokens: 800, cacheReadTokens: 0 });
    expect(calculateCost(prices, usage)).toBeCloseTo((1200 * 3 + 300 * 15 + 800 * 3.75) / 1e6, 12);
  });

  it("OpenAI's convention: cached tokens are inside prompt_tokens and are taken out", () => {
    const usage = usageFromOpenAi({ prompt_tokens: 5000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 4000 } });
    expect(usage).toEqual({ inputTokens: 1000, outputTokens: 100, cacheWriteTokens: 0, cacheReadTokens: 4000 });
    const gpt41 = { inputPrice: 2, outputPrice: 8, cacheWritePrice: 0, cacheReadPrice: 0.5 };
    expect(calculateCost(gpt41, usage)).toBeCloseTo((1000 * 2 + 100 * 8 + 4000 * 0.5) / 1e6, 12);
  });

  it("the same request costs the same whichever convention reported it", () => {
    const anthropicStyle = usageFromAnthropic({ input_tokens: 700, output_tokens: 50, cache_read_input_tokens: 9300 });
    const openAiStyle = usageFromOpenAi({ prompt_tokens: 10_000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 9300 } });
    expect(openAiStyle).toEqual(anthropicStyle);
    expect(calculateCost(prices, openAiStyle)).toBe(calculateCost(prices, anthropicStyle));
  });

  it("reads DeepSeek's cache hits and OpenRouter's cache writes", () => {
    expect(usageFromOpenAi({ prompt_tokens: 900, completion_tokens: 10, prompt_cache_hit_tokens: 600 })).toMatchObject({
      inputTokens: 300,
      cacheReadTokens: 600,
    });
    expect(
      usageFromOpenAi({ prompt_tokens: 1000, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 700 } }),
    ).toEqual({ inputTokens: 200, outputTokens: 0, cacheWriteTokens: 700, cacheReadTokens: 100 });
  });

  it("never counts negative input when a server over-reports cached tokens", () => {
    expect(usageFromOpenAi({ prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 50 } })).toMatchObject({
      inputTokens: 0,
      cacheReadTokens: 10,
    });
  });

  it("an unknown model costs nothing rather than a guess", () => {
    expect(calculateCost(UNKNOWN_MODEL_INFO, { inputTokens: 1e6, outputTokens: 1e6, cacheReadTokens: 1e6 })).toBe(0);
  });

  it("rejects negative or non-finite counts", () => {
    expect(() => calculateCost(prices, { inputTokens: -1, outputTokens: 0 })).toThrow(/inputTokens/);
    expect(() => calculateCost(prices, { inputTokens: 0, outputTokens: Number.NaN })).toThrow(/outputTokens/);
  });
});
