/** buildApiHandler: which handler a configuration gets, and the clear errors for bad settings. */
import { describe, expect, it } from "vitest";
import { resolveConfiguration } from "../../src/api/config.js";
import { buildApiHandler, type ApiConfiguration } from "../../src/api/index.js";

describe("buildApiHandler", () => {
  it("resolves the model, with the override, for either provider", () => {
    const anthropic = buildApiHandler({ provider: "anthropic", apiKey: "k", modelId: "claude-haiku-4-5" });
    expect(anthropic.getModel()).toMatchObject({ id: "claude-haiku-4-5", info: { contextWindow: 200_000 } });
    const local = buildApiHandler({ provider: "openai", baseUrl: "http://127.0.0.1:11434/v1", modelId: "qwen3", contextWindowOverride: 32_768 });
    expect(local.getModel()).toMatchObject({ id: "qwen3", info: { contextWindow: 32_768, inputPrice: 0 } });
  });

  it.each<[string, ApiConfiguration, RegExp]>([
    ["an unknown provider", { provider: "mistral" as never }, /Unknown API provider "mistral"/],
    ["a base URL that is no URL", { provider: "openai", baseUrl: "localhost 11434" }, /not a valid URL/],
    ["a zero idle timeout", { provider: "openai", streamIdleTimeoutMs: 0 }, /streamIdleTimeoutMs/],
    ["a negative request timeout", { provider: "openai", requestTimeoutMs: -5 }, /requestTimeoutMs/],
    [
      "a thinking budget below Anthropic's minimum",
      { provider: "anthropic", modelId: "claude-haiku-4-5", thinkingBudgetTokens: 500 },
      /thinkingBudgetTokens must be between 1024 and 63999/,
    ],
    [
      "a thinking budget that leaves no room for the answer",
      { provider: "anthropic", modelId: "claude-haiku-4-5", thinkingBudgetTokens: 64_000 },
      /thinkingBudgetTokens must be between 1024 and 63999/,
    ],
    [
      "a thinking budget larger than an overridden window allows",
      { provider: "anthropic", modelId: "claude-haiku-4-5", contextWindowOverride: 8_000, thinkingBudgetTokens: 10_000 },
      /between 1024 and 7999 for claude-haiku-4-5/,
    ],
    [
      "a model Anthropic has retired",
      { provider: "anthropic", modelId: "claude-opus-4-1-20250805" },
      /"claude-opus-4-1-20250805" was retired by Anthropic on 2026-08-05; choose a current one, such as claude-sonnet-5-5/,
    ],
    [
      "a model OpenAI has retired",
      { provider: "openai", modelId: "o4-mini" },
      /"o4-mini" was retired by OpenAI on 2026-10-23/,
    ],
  ])("rejects %s with a message naming it", (_name, config, message) => {
    expect(() => buildApiHandler(config)).toThrow(message);
  });

  it("ignores a thinking budget for a model that does not reason", () => {
    const api = () => buildApiHandler({ provider: "openai", modelId: "gpt-4.1", thinkingBudgetTokens: 10 });
    expect(api).not.toThrow();
    expect(resolveConfiguration({ provider: "openai", modelId: "gpt-4.1", thinkingBudgetTokens: 10 }).thinkingBudgetTokens).toBeUndefined();
  });

  it("keeps any positive budget for an adaptive model, where it only asks for thinking", () => {
    const resolved = resolveConfiguration({ provider: "anthropic", modelId: "claude-opus-5-5", thinkingBudgetTokens: 10 });
    expect(resolved.thinkingBudgetTokens).toBe(10);
    expect(() => resolveConfiguration({ provider: "anthropic", modelId: "claude-opus-5-5", thinkingBudgetTokens: -1 })).toThrow(
      /thinkingBudgetTokens must be a positive number/,
    );
  });

  it("refuses a deprecated model from its retirement date on, but not before, nor through a proxy", () => {
    const config: ApiConfiguration = { provider: "anthropic", apiKey: "k", modelId: "claude-sonnet-4-5" };
    expect(() => resolveConfiguration(config, new Date("2026-11-29T23:59:59Z"))).not.toThrow();
    expect(() => resolveConfiguration(config, new Date("2026-11-30T00:00:00Z"))).toThrow(/retired by Anthropic on 2026-11-30/);
    const proxied = { ...config, baseUrl: "http://127.0.0.1:4000" };
    expect(resolveConfiguration(proxied, new Date("2026-12-01T00:00:00Z")).model.id).toBe("claude-sonnet-4-5");
  });
});

describe("which OpenAI API a configuration calls", () => {
  const api = (config: Omit<ApiConfiguration, "provider">) => resolveConfiguration({ provider: "openai", apiKey: "k", ...config }).openAiApi;

  it("sends GPT-6 and GPT-5.4+ to the Responses API on OpenAI's own endpoint, and other models to chat.completions", () => {
    expect(api({ modelId: "gpt-6.2-sol" })).toBe("responses");
    expect(api({ modelId: "gpt-6.9-nova" })).toBe("responses"); // not in the catalogue yet, same family
    expect(api({ modelId: "gpt-5.4-mini" })).toBe("responses");
    expect(api({ modelId: "gpt-5.10" })).toBe("responses");
    expect(api({ modelId: "gpt-5.3" })).toBe("chat");
    expect(api({ modelId: "gpt-4o" })).toBe("chat");
  });

  it("keeps chat.completions on a compatible server, unless told otherwise", () => {
    expect(api({ modelId: "gpt-6.2-sol", baseUrl: "http://127.0.0.1:4000/v1" })).toBe("chat");
    expect(api({ modelId: "gpt-6.2-sol", baseUrl: "http://127.0.0.1:4000/v1", openAiApi: "responses" })).toBe("responses");
    expect(api({ modelId: "gpt-6.2-sol", openAiApi: "chat" })).toBe("chat");
  });

  it("refuses an API it does not know", () => {
    expect(() => api({ openAiApi: "soap" as never })).toThrow(/openAiApi must be "chat" or "responses"/);
  });
});
