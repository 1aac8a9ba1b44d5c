import { describe, expect, it } from "vitest";
import { memoryProviderMemory, withProviderSwitch } from "./provider-switch";

describe("switching providers in the settings view", () => {
  it("leaves the old provider's model and server behind, and gives them back on the way back", async () => {
    const memory = memoryProviderMemory();
    const ollama = { provider: "ollama" as const, modelId: "qwen3-coder:30b", baseUrl: "http://10.0.0.5:11434" };
    expect(await withProviderSwitch(ollama, { provider: "gemini" }, memory)).toEqual({ provider: "gemini", modelId: "", baseUrl: "" });
    const gemini = { provider: "gemini" as const, modelId: "gemini-4-argon" };
    expect(await withProviderSwitch(gemini, { provider: "ollama" }, memory)).toEqual({ provider: "ollama", modelId: "qwen3-coder:30b", baseUrl: "http://10.0.0.5:11434" });
    expect(await withProviderSwitch({ provider: "ollama" }, { provider: "gemini" }, memory)).toEqual({ provider: "gemini", modelId: "gemini-4-argon", baseUrl: "" });
  });

  it("changes nothing else, and lets a change that names the model keep it", async () => {
    const memory = memoryProviderMemory();
    const change = { modelId: "claude-opus-5-5" };
    expect(await withProviderSwitch({ provider: "anthropic" }, change, memory)).toBe(change);
    expect(await withProviderSwitch({ provider: "anthropic" }, { provider: "anthropic", modelId: "x" }, memory)).toEqual({ provider: "anthropic", modelId: "x" });
    expect(await withProviderSwitch({ provider: "anthropic", modelId: "a" }, { provider: "openrouter", modelId: "anthropic/claude-sonnet-5-5" }, memory)).toEqual({
      provider: "openrouter",
      modelId: "anthropic/claude-sonnet-5-5",
      baseUrl: "",
    });
  });
});
