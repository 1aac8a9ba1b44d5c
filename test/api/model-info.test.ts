/**
 * Model lookup, unknown-model defaults, the context window override, and cost under both
 * providers' token conventions.
 */
import { describe, expect, it } from "vitest";
import { calculateCost, promptCost, usageFromAnthropic, usageFromOpenAi } from "../../src/api/cost.js";
import {
  catalogueIdOf,
  DEFAULT_MODEL_ID,
  listModels,
  pricesFor,
  resolveModel,
  retirementOf,
  UNKNOWN_MODEL_INFO,
  type ProviderId,
} from "../../src/api/model-info.js";

describe("resolveModel", () => {
  it("finds known models by alias, dated id, router prefix and local tag", () => {
    const sonnet = resolveModel("anthropic", "claude-sonnet-5-5");
    expect(sonnet.info).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 128_000, inputPrice: 2, outputPrice: 10 });
    expect(sonnet.info.supportsThinking && sonnet.info.supportsPromptCache).toBe(true);
    expect(resolveModel("anthropic", "claude-haiku-4-5-20251001").info).toEqual(resolveModel("anthropic", "claude-haiku-4-5").info);
    expect(resolveModel("anthropic", "claude-haiku-4-5-20251001").info.maxOutputTokens).toBe(64_000);
    expect(resolveModel("openai", "gpt-4o-2024-08-06").info.contextWindow).toBe(128_000);
    expect(resolveModel("openai", "openai/gpt-6.2-sol").info.inputPrice).toBe(2);
    expect(resolveModel("openai", "deepseek-v4-flash:latest").info.outputPrice).toBe(1.2);
  });

  it("keeps the id it was given, dated or not", () => {
    expect(resolveModel("anthropic", "claude-haiku-4-5-20251001").id).toBe("claude-haiku-4-5-20251001");
  });

  it("uses the provider's default model when none is set: the current Sonnet and GPT-6.2 Sol", () => {
    // Deliberately changed: the old default, claude-sonnet-4-5, retires on 2026-11-30.
    expect(resolveModel("anthropic").id).toBe("claude-sonnet-5-5");
    expect(resolveModel("openai", "  ").id).toBe("gpt-6.2-sol");
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
      thinking: "none",
      supportsTemperature: false,
    });
    expect(UNKNOWN_MODEL_INFO).toEqual(info);
    // A retired model is unknown to the catalogue too: it falls back rather than keeping old facts.
    expect(resolveModel("anthropic", "claude-3-7-sonnet-20250219").info).toEqual(UNKNOWN_MODEL_INFO);
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

describe("thinking and temperature per model", () => {
  it.each<[ProviderId, string, string, boolean]>([
    ["anthropic", "claude-haiku-4-5", "manual", true],
    ["anthropic", "claude-sonnet-4-5", "manual", true],
    ["anthropic", "claude-sonnet-4-6", "adaptive", true],
    ["anthropic", "claude-opus-4-6", "adaptive", true],
    ["anthropic", "claude-opus-4-7", "adaptive", false],
    ["anthropic", "claude-sonnet-5", "adaptive", false],
    ["anthropic", "claude-sonnet-5-5", "adaptive", false],
    ["anthropic", "claude-opus-5-5", "adaptive", false],
    ["anthropic", "claude-haiku-5-5", "adaptive", false],
    ["openai", "gpt-4.1", "none", true],
    ["openai", "gpt-6.2-sol", "adaptive", false],
    ["openai", "deepseek-flash", "adaptive", false],
    ["openai", "qwen3-coder:30b", "none", false],
  ])("%s %s thinks %s, temperature accepted: %s", (provider, id, thinking, temperature) => {
    const { info } = resolveModel(provider, id);
    expect(info.thinking).toBe(thinking);
    expect(info.supportsTemperature).toBe(temperature);
  });

  it("keeps supportsThinking meaning 'reasons at all' for every catalogued model", () => {
    for (const { provider, id } of listModels()) {
      const { info } = resolveModel(provider, id);
      expect(info.supportsThinking, id).toBe(info.thinking !== "none");
    }
  });
});

describe("catalogueIdOf", () => {
  it("files each provider's default model under its own id, so the settings picker knows it", () => {
    for (const provider of ["anthropic", "openai"] as const) {
      expect(catalogueIdOf(provider, DEFAULT_MODEL_ID[provider] ?? "")).toBe(DEFAULT_MODEL_ID[provider]);
      expect(listModels(provider).map((m) => m.id)).toContain(DEFAULT_MODEL_ID[provider]);
    }
  });

  it("maps a dated, prefixed or tagged id to its entry, and knows nothing of an unknown one", () => {
    expect(catalogueIdOf("anthropic", "claude-haiku-4-5-20251001")).toBe("claude-haiku-4-5");
    expect(catalogueIdOf("openai", "openai/gpt-4.1")).toBe("gpt-4.1");
    expect(catalogueIdOf("openai", "deepseek-v4-flash:latest")).toBe("deepseek-v4-flash");
    expect(catalogueIdOf("openai", " gpt-4o ")).toBe("gpt-4o");
    expect(catalogueIdOf("anthropic", "my-fine-tune")).toBeUndefined();
    expect(catalogueIdOf("anthropic", "gpt-4o")).toBeUndefined();
  });
});

describe("listModels", () => {
  it("lists every provider with a catalogue, with window, output and prices, each resolving to the same facts", () => {
    const all = listModels();
    expect(new Set(all.map((m) => m.provider))).toEqual(new Set(["anthropic", "openai", "gemini", "bedrock", "vertex"]));
    for (const model of all) {
      const { info } = resolveModel(model.provider, model.id);
      expect(model, model.id).toMatchObject({
        contextWindow: info.contextWindow,
        maxOutputTokens: info.maxOutputTokens,
        inputPrice: info.inputPrice,
        outputPrice: info.outputPrice,
        cacheWritePrice: info.cacheWritePrice,
        cacheReadPrice: info.cacheReadPrice,
      });
      expect(model.inputPrice, model.id).toBeGreaterThan(0);
    }
    expect(all.find((m) => m.id === "claude-opus-5-5")).toEqual({
      provider: "anthropic",
      id: "claude-opus-5-5",
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
      inputPrice: 4,
      outputPrice: 20,
      cacheWritePrice: 5,
      cacheReadPrice: 0.2,
      thinking: "adaptive",
      status: "active",
    });
  });

  it("puts current models first and marks the ones with a retirement date", () => {
    const anthropic = listModels("anthropic");
    expect(anthropic.every((m) => m.provider === "anthropic")).toBe(true);
    const order = anthropic.map((m) => m.status);
    expect(order.indexOf("deprecated")).toBeGreaterThan(order.lastIndexOf("active"));
    expect(anthropic.find((m) => m.id === "claude-sonnet-4-5")).toMatchObject({ status: "deprecated", retiresOn: "2026-11-30" });
  });

  it("offers defaults that are listed, active and not retiring", () => {
    for (const provider of ["anthropic", "openai"] as const) {
      const model = listModels(provider).find((m) => m.id === DEFAULT_MODEL_ID[provider]);
      expect(model).toMatchObject({ status: "active" });
      expect(model?.retiresOn).toBeUndefined();
    }
  });
});

describe("retirementOf", () => {
  const before = new Date("2026-11-29T12:00:00Z");
  const after = new Date("2026-11-30T00:00:01Z");

  it("knows retired ids, dated or not, with the date where known", () => {
    expect(retirementOf("anthropic", "claude-opus-4-1-20250805", before)).toEqual({ retiredOn: "2026-08-05" });
    expect(retirementOf("anthropic", "claude-3-5-haiku", before)).toEqual({});
    expect(retirementOf("openai", "o4-mini", before)).toEqual({ retiredOn: "2026-10-23" });
  });

  it("treats a deprecated model as retired from its retirement date on", () => {
    expect(retirementOf("anthropic", "claude-sonnet-4-5-20250929", before)).toBeUndefined();
    expect(retirementOf("anthropic", "claude-sonnet-4-5-20250929", after)).toEqual({ retiredOn: "2026-11-30" });
  });

  it("says nothing about current or unknown models", () => {
    expect(retirementOf("anthropic", "claude-sonnet-5-5", after)).toBeUndefined();
    expect(retirementOf("openai", "my-local-llama", after)).toBeUndefined();
  });
});

describe("pricesFor", () => {
  it("switches a whole request to the long-prompt rates once its prompt is past the threshold", () => {
    const haiku = resolveModel("anthropic", "claude-haiku-5-5").info;
    const short = pricesFor(haiku, { inputTokens: 40_000, outputTokens: 9_000, cacheReadTokens: 60_000 });
    expect(short).toMatchObject({ inputPrice: 0.1, outputPrice: 0.5, cacheWritePrice: 0.125, cacheReadPrice: 0.01 });
    // 100,001 prompt tokens counting cache writes and reads.
    const long = pricesFor(haiku, { inputTokens: 1, outputTokens: 10, cacheWriteTokens: 40_000, cacheReadTokens: 60_000 });
    expect(long).toMatchObject({ inputPrice: 0.5, outputPrice: 2.5, cacheWritePrice: 0.625, cacheReadPrice: 0.05 });
  });

  it("uses the normal prices for a model with one tier", () => {
    const sonnet = resolveModel("anthropic", "claude-sonnet-5-5").info;
    expect(pricesFor(sonnet, { inputTokens: 900_000, outputTokens: 0 })).toMatchObject({ inputPrice: 2, cacheReadPrice: 0.1 });
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

  it("prices a prompt before its answer: as cache writes when the handler writes the cache, else as input", () => {
    expect(promptCost(prices, 2_000_000, false)).toBe(6);
    expect(promptCost(prices, 2_000_000, true)).toBe(7.5);
  });

  it("takes cache counts a provider left undefined as none", () => {
    expect(calculateCost(prices, { inputTokens: 1_000_000, outputTokens: 0, cacheWriteTokens: undefined, cacheReadTokens: undefined })).toBe(3);
  });

  it("never bills more cache writes than the prompt tokens the cache reads left", () => {
    expect(usageFromOpenAi({ prompt_tokens: 100, prompt_tokens_details: { cached_tokens: 90, cache_write_tokens: 50 } })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheWriteTokens: 10,
      cacheReadTokens: 90,
    });
  });

  it("rejects negative or non-finite counts", () => {
    expect(() => calculateCost(prices, { inputTokens: -1, outputTokens: 0 })).toThrow(/inputTokens/);
    expect(() => calculateCost(prices, { inputTokens: 0, outputTokens: Number.NaN })).toThrow(/outputTokens/);
  });
});

describe("Bedrock's and Vertex's names for Claude", () => {
  it("lists Bedrock's global inference profiles and Vertex's dated ids, and prices each as its Claude", () => {
    const bedrock = listModels("bedrock").map((m) => m.id);
    expect(bedrock).toContain("global.anthropic.claude-sonnet-5-5");
    expect(bedrock).toContain("global.anthropic.claude-haiku-4-5-20251001-v1:0");
    expect(bedrock).toContain("global.anthropic.claude-opus-4-6-v1");
    expect(listModels("vertex").map((m) => m.id)).toEqual(expect.arrayContaining(["claude-sonnet-5-5", "claude-haiku-4-5@20251001", DEFAULT_MODEL_ID.gemini]));
    for (const id of ["us.anthropic.claude-sonnet-5-5", "eu.anthropic.claude-sonnet-5-5", "anthropic.claude-sonnet-5-5", "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-5-5"]) {
      expect(catalogueIdOf("bedrock", id), id).toBe("global.anthropic.claude-sonnet-5-5");
      expect(resolveModel("bedrock", id).info, id).toEqual(resolveModel("anthropic", "claude-sonnet-5-5").info);
    }
    expect(catalogueIdOf("vertex", "claude-haiku-4-5@20251001")).toBe("claude-haiku-4-5@20251001");
  });
});
