/**
 * The settings view's model picker and a task's model facts, from the models each provider offers
 * (src/core/controller/provider-models.ts): the catalogue's, a server's list read over real HTTP
 * from the scripted model server's Ollama and OpenRouter routes, and VS Code's (the host's lister).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemorySecretStore } from "../../src/core/controller/stores";
import { ProviderModels } from "../../src/core/controller/provider-models";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

let server: ScriptedModelServer;
beforeEach(async () => {
  server = await startScriptedModelServer();
});
afterEach(async () => {
  await server.close();
});

/** Resolves at the next "list changed" call. */
function listChanges() {
  let resolveNext: () => void = () => {};
  let next = new Promise<void>((resolve) => (resolveNext = resolve));
  return {
    onListChanged: () => {
      resolveNext();
      next = new Promise<void>((resolve) => (resolveNext = resolve));
    },
    next: () => next,
  };
}

describe("ProviderModels", () => {
  it("lists the catalogue for a provider Tandem knows, with no list state", async () => {
    const models = new ProviderModels({ secrets: new MemorySecretStore() });
    const picker = await models.picker({ provider: "gemini" });
    expect(picker.modelList).toBeUndefined();
    expect(picker.models.length).toBeGreaterThan(0);
    expect(picker.models.every((m) => m.provider === "gemini")).toBe(true);
  });

  it("starts reading a server's list when none is known, shows it once read, and knows the chosen model's window", async () => {
    server.modelLists.setModels([{ id: "qwen3-coder:30b", contextLength: 262_144 }, { id: "llama3.2:3b", contextLength: 131_072 }]);
    const changes = listChanges();
    const models = new ProviderModels({ secrets: new MemorySecretStore(), onListChanged: changes.onListChanged });
    const api = { provider: "ollama" as const, baseUrl: server.url, modelId: "qwen3-coder:30b" };
    const changed = changes.next();
    const first = await models.picker(api);
    expect(first).toEqual({ models: [], modelList: { reading: true } });
    await changed;
    const second = await models.picker(api);
    expect(second.models.map((m) => [m.id, m.contextWindow])).toEqual([
      ["qwen3-coder:30b", 262_144],
      ["llama3.2:3b", 131_072],
    ]);
    expect(second.modelList).toMatchObject({ reading: false, fetchedAt: expect.any(Number) });
    expect(await models.listedInfo(api)).toMatchObject({ contextWindow: 262_144 });
    expect(server.modelLists.requestsTo("/api/tags")).toHaveLength(1);
  });

  it("says why a list could not be read, and keeps the last good list after a failed Refresh", async () => {
    const models = new ProviderModels({ secrets: new MemorySecretStore() });
    const closed = { provider: "ollama" as const, baseUrl: "http://127.0.0.1:9" };
    await models.refresh(closed);
    const picker = await models.picker(closed);
    expect(picker.models).toEqual([]);
    expect(picker.modelList?.error).toMatch(/Ollama/);

    server.modelLists.setModels([{ id: "mistral:7b", contextLength: 32_768 }]);
    const api = { provider: "ollama" as const, baseUrl: server.url };
    await models.refresh(api);
    server.modelLists.fail("/api/tags", { status: 500 });
    await models.refresh(api);
    const kept = await models.picker(api);
    expect(kept.models.map((m) => m.id)).toEqual(["mistral:7b"]);
    expect(kept.modelList?.error).toBeTruthy();
  });

  it("sends OpenRouter's stored key with the list request, and prices the models from it", async () => {
    server.modelLists.setModels([{ id: "anthropic/claude-sonnet-5-5", name: "Anthropic: Claude Sonnet 5.5", contextLength: 1_000_000, pricing: { prompt: "0.000002", completion: "0.00001" } }]);
    const secrets = new MemorySecretStore();
    await secrets.setApiKey("openrouter", "sk-or-key");
    const models = new ProviderModels({ secrets });
    const api = { provider: "openrouter" as const, baseUrl: `${server.url}/v1` };
    await models.refresh(api);
    const picker = await models.picker(api);
    expect(picker.models).toEqual([expect.objectContaining({ id: "anthropic/claude-sonnet-5-5", name: "Anthropic: Claude Sonnet 5.5", inputPrice: 2, outputPrice: 10 })]);
    expect(server.modelLists.requestsTo("/v1/models")[0]?.headers.authorization).toBe("Bearer sk-or-key");
  });

  it("asks the host for VS Code's models, and says so when there is no VS Code", async () => {
    const lister = { list: async () => [{ id: "copilot-gpt", name: "GPT (Copilot)", info: { contextWindow: 64_000 } }] };
    const models = new ProviderModels({ secrets: new MemorySecretStore(), vscodeModels: lister });
    await models.refresh({ provider: "vscode-lm" });
    expect((await models.picker({ provider: "vscode-lm" })).models.map((m) => [m.id, m.name, m.contextWindow])).toEqual([["copilot-gpt", "GPT (Copilot)", 64_000]]);
    expect(await models.listedInfo({ provider: "vscode-lm", modelId: "copilot-gpt" })).toEqual({ contextWindow: 64_000 });
    const none = new ProviderModels({ secrets: new MemorySecretStore() });
    await none.refresh({ provider: "vscode-lm" });
    expect((await none.picker({ provider: "vscode-lm" })).modelList?.error).toMatch(/only available inside VS Code/);
  });
});
