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
  it("has models, a default, a handler, a CLI flag and its key's variables", async () => {
    expect(listModels(id).length).toBeGreaterThan(0);
    expect(listModels(id).map((m) => m.id)).toContain(DEFAULT_MODEL_ID[id]);
    const resolved = resolveConfiguration({ provider: id, apiKey: "k" });
    expect(resolved.provider).toBe(id);
    expect(buildApiHandler({ provider: id, apiKey: "k" })).toBeDefined();
    const env = { [PROVIDERS[id].keyEnv]: "KEY", [PROVIDERS[id].baseUrlEnv]: "http://127.0.0.1:9" };
    const cli = parseCliArgs(["--provider", id, "do it"], env, "/tmp");
    expect(cli).toMatchObject({ api: { provider: id, apiKey: "KEY", baseUrl: "http://127.0.0.1:9" } });
    // Without --provider, the provider whose key is set.
    expect(parseCliArgs(["do it"], { [PROVIDERS[id].keyEnv]: "KEY" }, "/tmp")).toMatchObject({ api: { provider: id } });
    const secrets = memorySecrets();
    await secrets.store.setApiKey(id, "secret");
    expect(await secrets.store.getApiKey(id)).toBe("secret");
  });
});

describe("an unknown provider", () => {
  it("is refused by each part, naming the same choices", async () => {
    const choices = providerChoices();
    expect(choices).toBe(PROVIDER_IDS.join(" or "));
    expect(() => resolveConfiguration({ provider: "gemini" as never })).toThrow(`expected ${choices}`);
    expect(() => parseCliArgs(["--provider", "gemini", "x"], {}, "/tmp")).toThrow(`use ${choices}`);
    const secrets = memorySecrets();
    await expect(secrets.store.setApiKey("gemini" as never, "k")).rejects.toThrow(`expected ${choices}`);
    expect(secrets.stored.size).toBe(0);
  });
});
