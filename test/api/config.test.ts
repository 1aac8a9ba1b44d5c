/** buildApiHandler: which handler a configuration gets, and the clear errors for bad settings. */
import { describe, expect, it } from "vitest";
import { buildApiHandler, type ApiConfiguration } from "../../src/api/index.js";

describe("buildApiHandler", () => {
  it("resolves the model, with the override, for either provider", () => {
    const anthropic = buildApiHandler({ provider: "anthropic", apiKey: "k", modelId: "claude-haiku-4-5" });
    expect(anthropic.getModel()).toMatchObject({ id: "claude-haiku-4-5", info: { contextWindow: 200_000 } });
    const local = buildApiHandler({ provider: "openai", baseUrl: "http://127.0.0.1:11434/v1", modelId: "qwen3", contextWindowOverride: 32_768 });
    expect(local.getModel()).toMatchObject({ id: "qwen3", info: { contextWindow: 32_768, inputPrice: 0 } });
  });

  it.each<[string, ApiConfiguration, RegExp]>([
    ["an unknown provider", { provider: "gemini" as never }, /Unknown API provider "gemini"/],
    ["a base URL that is no URL", { provider: "openai", baseUrl: "localhost 11434" }, /not a valid URL/],
    ["a zero idle timeout", { provider: "openai", streamIdleTimeoutMs: 0 }, /streamIdleTimeoutMs/],
    ["a negative request timeout", { provider: "openai", requestTimeoutMs: -5 }, /requestTimeoutMs/],
    [
      "a thinking budget below Anthropic's minimum",
      { provider: "anthropic", modelId: "claude-sonnet-4-5", thinkingBudgetTokens: 500 },
      /thinkingBudgetTokens must be between 1024 and 63999/,
    ],
    [
      "a thinking budget that leaves no room for the answer",
      { provider: "anthropic", modelId: "claude-opus-4-1", thinkingBudgetTokens: 32_000 },
      /thinkingBudgetTokens must be between 1024 and 31999/,
    ],
  ])("rejects %s with a message naming it", (_name, config, message) => {
    expect(() => buildApiHandler(config)).toThrow(message);
  });

  it("ignores a thinking budget for a model without extended thinking", () => {
    expect(() =>
      buildApiHandler({ provider: "anthropic", apiKey: "k", modelId: "claude-3-5-haiku", thinkingBudgetTokens: 10 }),
    ).not.toThrow();
  });
});
