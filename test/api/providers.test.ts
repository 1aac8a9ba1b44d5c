/**
 * One provider list (src/shared/providers.ts): every part that names providers reads it, so each
 * listed provider works everywhere (catalogue, configuration, handler, CLI, key storage) and an
 * unknown one is refused everywhere with the same list of choices.
 */
import { describe, expect, it } from "vitest";
import { buildApiHandler } from "../../src/api";
import { resolveConfiguration } from "../../src/api/config";
import { DEFAULT_MODEL_ID, listModels } from "../../src/api/model-info";
import { parseCliArgs } from "../../src/cli/args";
import { VscodeSecretStore } from "../../src/host/vscode/secret-store";
import { PROVIDER_IDS, PROVIDERS, providerChoices } from "../../src/shared/providers";

const memorySecrets = () => {
  const stored = new Map<string, string>();
  return {
    stored,
    store: new VscodeSecretStore({
      get: async (key: string) => stored.get(key),
      store: async (key: string, value: string) => void stored.set(key, value),
      delete: async (key: string) => void stored.delete(key),
    } as never),
  };
};

describe.each(PROVIDER_IDS)("provider %s", (id) => {
  const spec = PROVIDERS[id];
  it("has a model source, a default or a list, a handler or its host's, a CLI flag and its settings' variables", async () => {
    if (spec.models === "catalogue") {
      expect(listModels(id).length).toBeGreaterThan(0);
      expect(listModels(id).map((m) => m.id)).toContain(DEFAULT_MODEL_ID[id]);
    } else {
      // The server (or VS Code) names the models; only OpenRouter also knows the vendors' catalogue.
      expect(DEFAULT_MODEL_ID[id] === undefined).toBe(id !== "openrouter");
    }
    const config = { provider: id, apiKey: "k", modelId: DEFAULT_MODEL_ID[id] ?? "some-model", vertexProjectId: "p" };
    expect(resolveConfiguration(config).provider).toBe(id);
    if (spec.extensionOnly) {
      expect(() => buildApiHandler(config)).toThrow(/only available inside VS Code/);
      expect(() => parseCliArgs(["--provider", id, "do it"], {}, "/tmp")).toThrow(/only available inside VS Code/);
      return;
    }
    expect(buildApiHandler(config)).toBeDefined();
    const env: Record<string, string> = {};
    for (const [field, names] of Object.entries(spec.env)) env[names[0] ?? ""] = field === "baseUrl" ? "http://127.0.0.1:9" : `${field}-value`;
    const cli = parseCliArgs(["--provider", id, "do it"], env, "/tmp");
    if (typeof cli === "string") throw new Error(cli);
    for (const field of spec.fields) {
      expect(cli.api[field], field).toBe(field === "baseUrl" ? "http://127.0.0.1:9" : `${field}-value`);
    }
    // Without --provider, the provider whose key is set (the first of them in the list).
    const keyVariable = spec.env.apiKey?.[0];
    if (keyVariable) {
      const first = PROVIDER_IDS.find((p) => PROVIDERS[p].env.apiKey?.includes(keyVariable));
      expect(parseCliArgs(["do it"], { [keyVariable]: "KEY" }, "/tmp")).toMatchObject({ api: { provider: first } });
    }
    if (spec.fields.includes("apiKey")) {
      const secrets = memorySecrets();
      await secrets.store.setApiKey(id, "secret");
      expect(await secrets.store.getApiKey(id)).toBe("secret");
    }
  });
});

describe("an unknown provider", () => {
  it("is refused by each part, naming the same choices", async () => {
    const choices = providerChoices();
    expect(choices).toBe(`${PROVIDER_IDS.slice(0, -1).join(", ")} or ${PROVIDER_IDS.at(-1)}`);
    expect(() => resolveConfiguration({ provider: "mistral" as never })).toThrow(`expected ${choices}`);
    expect(() => parseCliArgs(["--provider", "mistral", "x"], {}, "/tmp")).toThrow(`use ${providerChoices(PROVIDER_IDS.filter((p) => !PROVIDERS[p].extensionOnly))}`);
    const secrets = memorySecrets();
    await expect(secrets.store.setApiKey("mistral" as never, "k")).rejects.toThrow(`expected ${choices}`);
    expect(secrets.stored.size).toBe(0);
  });
});

describe("which handlers bill a new prompt as cache writes (the first request's estimate)", () => {
  it.each([
    ["anthropic", "claude-sonnet-5-5", true],
    ["bedrock", "global.anthropic.claude-sonnet-5-5", true],
    ["vertex", "claude-sonnet-5-5", true],
    ["vertex", "gemini-4-neon", false],
    ["gemini", "gemini-4-neon", false],
    ["openai", "gpt-6.2-sol", false],
    ["openrouter", "anthropic/claude-sonnet-5-5", false],
  ] as const)("%s %s: %s", (provider, modelId, writes) => {
    const handler = buildApiHandler({ provider, apiKey: "k", modelId, vertexProjectId: "p" });
    expect(handler.writesPromptCache === true).toBe(writes);
  });
});
