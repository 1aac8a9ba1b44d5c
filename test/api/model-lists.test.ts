/**
 * Model lists read over real HTTP from the scripted model server on 127.0.0.1 (its model-list
 * routes, test/support/model-list-routes.ts): each provider's happy path, what is sent, every
 * failure a person must be able to act on, the bounds, and the cache. The parsing field by field
 * is src/api/model-lists.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonFileModelListStore, ModelListCache, modelListCacheKey, type ModelListRecord, type ModelListStore } from "../../src/api/model-list-cache.js";
import { fetchModelList, ModelListError, type FetchModelListOptions, type ListedModel } from "../../src/api/model-lists.js";
import type { ProviderId } from "../../src/shared/providers.js";
import type { ScriptedListModel } from "../support/model-list-routes.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

const CLAUDE: ScriptedListModel = {
  id: "anthropic/claude-sonnet-5-5",
  name: "Anthropic: Claude Sonnet 5.5",
  contextLength: 1_000_000,
  maxCompletionTokens: 128_000,
  pricing: { prompt: "0.000002", completion: "0.00001", input_cache_read: "0.0000001", input_cache_write: "0.0000025" },
  vision: true,
  thinking: true,
  tools: true,
};
const FREE_LLAMA: ScriptedListModel = {
  id: "meta-llama/llama-4-scout:free",
  name: "Meta: Llama 4 Scout (free)",
  contextLength: 131_072,
  pricing: { prompt: "0", completion: "0" },
  temperature: true,
};
const QWEN: ScriptedListModel = { id: "qwen3:8b", contextLength: 40_960, architecture: "qwen3", thinking: true, tools: true };
const LLAVA: ScriptedListModel = { id: "llava:7b", contextLength: 32_768, vision: true };
const EMBEDDER: ScriptedListModel = { id: "nomic-embed-text:latest", contextLength: 2048, architecture: "nomic-bert", embedding: true };

/** The error fetchModelList threw, checked to be a ModelListError. */
async function listError(provider: ProviderId, options: FetchModelListOptions): Promise<ModelListError> {
  const error = await fetchModelList(provider, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelListError);
  return error as ModelListError;
}

/** A port nothing listens on: taken, then given back. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const ids = (models: readonly ListedModel[]): string[] => models.map((m) => m.id);

describe("the scripted server's list routes", () => {
  it("are off until a test sets models or a fault, so other tests see the server as before", async () => {
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(404);
    expect((await listError("ollama", { baseUrl: server.url })).message).toMatch(/has no \/api\/tags \(HTTP 404\): is this the address of the Ollama server\?/);
    server.modelLists.setModels([QWEN]);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(200);
    // The wires' POST routes under /v1 are untouched.
    expect((await fetch(`${server.openaiBaseUrl}/chat/completions`, { method: "POST", body: "{}" })).status).toBe(400);
  });
});

describe("OpenRouter", () => {
  it("lists the models with windows, output limits and prices per million; the key goes as a Bearer token", async () => {
    server.modelLists.setModels([CLAUDE, FREE_LLAMA]);
    const models = await fetchModelList("openrouter", { baseUrl: server.openaiBaseUrl, apiKey: "sk-or-v1-test" });
    expect(models).toEqual([
      {
        id: "anthropic/claude-sonnet-5-5",
        name: "Anthropic: Claude Sonnet 5.5",
        info: {
          contextWindow: 1_000_000,
          maxOutputTokens: 128_000,
          inputPrice: 2,
          outputPrice: 10,
          cacheReadPrice: 0.1,
          cacheWritePrice: 2.5,
          supportsPromptCache: true,
          supportsImages: true,
          thinking: "adaptive",
          supportsThinking: true,
          supportsTemperature: true,
        },
        supportsTools: true,
      },
      {
        id: "meta-llama/llama-4-scout:free",
        name: "Meta: Llama 4 Scout (free)",
        info: { contextWindow: 131_072, inputPrice: 0, outputPrice: 0, supportsImages: false, thinking: "none", supportsThinking: false, supportsTemperature: true },
        supportsTools: false,
      },
    ]);
    const [request] = server.modelLists.requestsTo("/v1/models");
    expect(request?.method).toBe("GET");
    expect(request?.headers.authorization).toBe("Bearer sk-or-v1-test");
    // Model lists are not model requests.
    expect(server.requests).toHaveLength(0);
  });

  it("sends no authorization header without a key", async () => {
    server.modelLists.setModels([CLAUDE]);
    await fetchModelList("openrouter", { baseUrl: server.openaiBaseUrl });
    expect(server.modelLists.requestsTo("/v1/models")[0]?.headers.authorization).toBeUndefined();
  });

  it("says a refused key is the key's fault, and never repeats the key", async () => {
    server.modelLists.fail("/v1/models", { status: 401, body: { error: { message: "User not found for key sk-or-v1-secret", code: 401 } } });
    const error = await listError("openrouter", { baseUrl: server.openaiBaseUrl, apiKey: "sk-or-v1-secret" });
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/^OpenRouter at http:\/\/127\.0\.0\.1:\d+\/v1 refused the API key \(HTTP 401\): check the key in the settings \(the CLI reads OPENROUTER_API_KEY\)\.$/);
    expect(error.message).not.toContain("sk-or-v1-secret");
  });

  it("quotes a server's error message, with the key taken out", async () => {
    server.modelLists.fail("/v1/models", { status: 500, body: { error: { message: "upstream failed for sk-or-v1-secret" } } });
    const error = await listError("openrouter", { baseUrl: server.openaiBaseUrl, apiKey: "sk-or-v1-secret" });
    expect(error.kind).toBe("http");
    expect(error.message).toMatch(/answered \/models with HTTP 500 \(it said: upstream failed for \[key\]\)\.$/);
    expect(error.message).not.toContain("sk-or-v1-secret");
  });

  it("names a base URL that has no model list", async () => {
    // The server's root, not its /v1: GET /models is no route there.
    const error = await listError("openrouter", { baseUrl: server.url });
    expect(error.kind).toBe("http");
    expect(error.message).toMatch(/^OpenRouter at http:\/\/127\.0\.0\.1:\d+ has no \/models \(HTTP 404\): is this the address of the OpenRouter server\?/);
  });
});

describe("Ollama", () => {
  it("lists the models of /api/tags with the windows and capabilities of /api/show, and no prices", async () => {
    server.modelLists.setModels([QWEN, LLAVA, EMBEDDER]);
    const models = await fetchModelList("ollama", { baseUrl: server.url, apiKey: "never-sent" });
    const local = { inputPrice: 0, outputPrice: 0, cacheWritePrice: 0, cacheReadPrice: 0, supportsPromptCache: false, supportsTemperature: true };
    expect(models).toEqual([
      { id: "qwen3:8b", info: { ...local, contextWindow: 40_960, supportsImages: false, thinking: "adaptive", supportsThinking: true }, supportsTools: true },
      { id: "llava:7b", info: { ...local, contextWindow: 32_768, supportsImages: true, thinking: "none", supportsThinking: false }, supportsTools: false },
    ]);
    const shows = server.modelLists.requestsTo("/api/show");
    expect(shows.map((r) => r.body)).toEqual(expect.arrayContaining([{ model: "qwen3:8b" }, { model: "llava:7b" }, { model: "nomic-embed-text:latest" }]));
    expect(server.modelLists.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("takes the base URL with or without /v1 (the OpenAI-compatible API's base)", async () => {
    server.modelLists.setModels([QWEN]);
    expect(ids(await fetchModelList("ollama", { baseUrl: `${server.url}/v1/` }))).toEqual(["qwen3:8b"]);
    expect(server.modelLists.requestsTo("/api/tags")).toHaveLength(1);
  });

  it("caps the window by the Modelfile's num_ctx", async () => {
    server.modelLists.setModels([{ ...QWEN, numCtx: 8192 }]);
    const [model] = await fetchModelList("ollama", { baseUrl: server.url });
    expect(model?.info.contextWindow).toBe(8192);
  });

  it("still lists a model /api/show cannot describe, without its details", async () => {
    server.modelLists.setModels([{ ...QWEN, showFault: { status: 500, body: { error: "failed to read blob" } } }, LLAVA]);
    const models = await fetchModelList("ollama", { baseUrl: server.url });
    expect(ids(models)).toEqual(["qwen3:8b", "llava:7b"]);
    expect(models[0]?.info.contextWindow).toBeUndefined();
    expect(models[1]?.info.contextWindow).toBe(32_768);
  });

  it("asks /api/show a few at a time, and keeps the order of /api/tags", async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ id: `model-${i}:latest`, contextLength: 1000 + i }));
    server.modelLists.setModels(many);
    server.modelLists.delay("/api/show", 20);
    const models = await fetchModelList("ollama", { baseUrl: server.url });
    expect(ids(models)).toEqual(many.map((m) => m.id));
    expect(models.map((m) => m.info.contextWindow)).toEqual(many.map((m) => m.contextLength));
  });

  it("says how to start Ollama when nothing listens", async () => {
    const port = await freePort();
    const error = await listError("ollama", { baseUrl: `http://127.0.0.1:${port}` });
    expect(error.kind).toBe("unreachable");
    expect(error.message).toBe(`Ollama is not running at http://127.0.0.1:${port} (connection refused): start it with \`ollama serve\`, or check the base URL.`);
  });

  it("says how to pull a model when there is none", async () => {
    server.modelLists.setModels([]);
    const error = await listError("ollama", { baseUrl: server.url });
    expect(error.kind).toBe("empty");
    expect(error.message).toMatch(/^Ollama at http:\/\/127\.0\.0\.1:\d+ has no models: pull one with `ollama pull <model>`/);
  });

  it("counts a server with only embedding models as having none", async () => {
    server.modelLists.setModels([EMBEDDER]);
    expect((await listError("ollama", { baseUrl: server.url })).kind).toBe("empty");
  });

  it("times out a server that never answers", async () => {
    server.modelLists.fail("/api/tags", "hang");
    const started = Date.now();
    const error = await listError("ollama", { baseUrl: server.url, timeoutMs: 300 });
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/^Ollama at http:\/\/127\.0\.0\.1:\d+ did not answer within 0\.3 s: it may be busy loading a model/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("times out the whole listing, /api/show calls included", async () => {
    server.modelLists.setModels([QWEN]);
    server.modelLists.fail("/api/show", "hang");
    expect((await listError("ollama", { baseUrl: server.url, timeoutMs: 300 })).kind).toBe("timeout");
  });

  it("stops at once when the caller cancels", async () => {
    server.modelLists.fail("/api/tags", "hang");
    const controller = new AbortController();
    const pending = listError("ollama", { baseUrl: server.url, signal: controller.signal });
    await expect.poll(() => server.modelLists.requestsTo("/api/tags").length).toBe(1);
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe("aborted");
    expect(error.message).toBe("Reading the Ollama model list was cancelled.");
  });
});

describe("LM Studio", () => {
  it("lists /v1/models with /api/v0's windows and types; leaves embedders out; sends no key", async () => {
    server.modelLists.setModels([
      { id: "qwen2-vl-7b-instruct", contextLength: 32_768, vision: true },
      { id: "meta-llama-3.1-8b-instruct", contextLength: 131_072, tools: true },
      { id: "text-embedding-nomic-embed-text-v1.5", contextLength: 2048, embedding: true },
    ]);
    const models = await fetchModelList("lmstudio", { baseUrl: `${server.url}/v1`, apiKey: "never-sent" });
    const local = { inputPrice: 0, outputPrice: 0, cacheWritePrice: 0, cacheReadPrice: 0, supportsPromptCache: false, supportsTemperature: true };
    expect(models).toEqual([
      { id: "qwen2-vl-7b-instruct", info: { ...local, contextWindow: 32_768, supportsImages: true }, supportsTools: false },
      { id: "meta-llama-3.1-8b-instruct", info: { ...local, contextWindow: 131_072, supportsImages: false }, supportsTools: true },
    ]);
    expect(server.modelLists.requestsTo("/api/v0/models")).toHaveLength(1);
    expect(server.modelLists.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("lists the ids alone from a server without /api/v0", async () => {
    server.modelLists.setModels([{ id: "local-model", contextLength: 8192 }]);
    server.modelLists.fail("/api/v0/models", { status: 404, body: { error: "Unexpected endpoint or method. (GET /api/v0/models)" } });
    const models = await fetchModelList("lmstudio", { baseUrl: server.url });
    expect(ids(models)).toEqual(["local-model"]);
    expect(models[0]?.info.contextWindow).toBeUndefined();
  });

  it("says a body that is not JSON is not a model list", async () => {
    server.modelLists.setModels([{ id: "local-model" }]);
    server.modelLists.fail("/v1/models", { garbage: "<html><body>502 Bad Gateway</body></html>" });
    const error = await listError("lmstudio", { baseUrl: server.url });
    expect(error.kind).toBe("bad_response");
    expect(error.message).toMatch(/^LM Studio at http:\/\/127\.0\.0\.1:\d+ answered \/v1\/models with something that is not a model list \(not JSON\)\.$/);
  });

  it("says JSON of the wrong shape is not a model list", async () => {
    server.modelLists.fail("/v1/models", { json: { models: [{ id: "x" }] } });
    const error = await listError("lmstudio", { baseUrl: server.url });
    expect(error.kind).toBe("bad_response");
    expect(error.message).toMatch(/^LM Studio at http:\/\/127\.0\.0\.1:\d+ answered \/v1\/models with something that is not a model list\.$/);
  });

  it("stops reading a huge body at the limit", async () => {
    server.modelLists.fail("/v1/models", { huge: 4 * 1024 * 1024 });
    const error = await listError("lmstudio", { baseUrl: server.url, maxBytes: 256 * 1024 });
    expect(error.kind).toBe("too_large");
    expect(error.message).toMatch(/answered \/v1\/models with more than 256 KB; it was not read\.$/);
  });

  it("refuses a body whose declared length is over the limit without waiting for it", async () => {
    server.modelLists.fail("/v1/models", { declaredBytes: 500 * 1024 * 1024 });
    const error = await listError("lmstudio", { baseUrl: server.url, timeoutMs: 5_000 });
    expect(error.kind).toBe("too_large");
    expect(error.message).toMatch(/with more than 8 MB/);
  });

  it("reads a list just under the limit, and keeps at most maxModels models", async () => {
    server.modelLists.fail("/v1/models", { huge: 200 * 1024 });
    const models = await fetchModelList("lmstudio", { baseUrl: server.url, maxBytes: 1024 * 1024, maxModels: 50 });
    expect(models).toHaveLength(50);
    expect(models[49]?.id).toBe("huge-49");
  });

  it("says how to start LM Studio's server when nothing listens", async () => {
    const port = await freePort();
    const error = await listError("lmstudio", { baseUrl: `http://127.0.0.1:${port}` });
    expect(error.message).toBe(
      `LM Studio is not running at http://127.0.0.1:${port} (connection refused): start its server (Developer tab, or \`lms server start\`), or check the base URL.`,
    );
  });

  it("says a server that asks for a token refused the request", async () => {
    server.modelLists.fail("/v1/models", { status: 401, body: { error: "Unauthorized" } });
    const error = await listError("lmstudio", { baseUrl: server.url });
    expect(error.kind).toBe("auth");
    expect(error.message).toMatch(/^LM Studio at http:\/\/127\.0\.0\.1:\d+ refused the request \(HTTP 401\)/);
  });

  it("says what to do when no model is served", async () => {
    server.modelLists.setModels([{ id: "text-embedding-nomic-embed-text-v1.5", embedding: true }]);
    const error = await listError("lmstudio", { baseUrl: server.url });
    expect(error.kind).toBe("empty");
    expect(error.message).toMatch(/has no chat models: download one in LM Studio/);
  });
});

/** A store that remembers what was set, as globalState would. */
function memoryStore(initial?: unknown): ModelListStore & { sets: ModelListRecord[] } {
  let record = initial;
  const sets: ModelListRecord[] = [];
  return {
    sets,
    get: () => record,
    set: (next) => {
      sets.push(next);
      record = JSON.parse(JSON.stringify(next)) as unknown;
    },
  };
}

describe("ModelListCache", () => {
  const HOUR = 60 * 60 * 1000;
  let clock: number;
  const now = (): number => clock;

  beforeEach(() => {
    clock = 1_800_000_000_000;
    server.modelLists.setModels([QWEN]);
  });

  it("serves a fresh list without asking, and asks again once it is an hour old", async () => {
    const cache = new ModelListCache({ store: memoryStore(), now });
    const first = await cache.get("ollama", { baseUrl: server.url });
    expect(first).toMatchObject({ fromCache: false, fetchedAt: clock });
    expect(ids(first.models)).toEqual(["qwen3:8b"]);
    clock += HOUR - 1;
    expect(await cache.get("ollama", { baseUrl: server.url })).toMatchObject({ fromCache: true });
    expect(server.modelLists.requestsTo("/api/tags")).toHaveLength(1);
    server.modelLists.setModels([QWEN, LLAVA]);
    clock += 1;
    const stale = await cache.get("ollama", { baseUrl: server.url });
    expect(stale.fromCache).toBe(false);
    expect(ids(stale.models)).toEqual(["qwen3:8b", "llava:7b"]);
    expect(server.modelLists.requestsTo("/api/tags")).toHaveLength(2);
  });

  it("asks the server on refresh, fresh list or not", async () => {
    const cache = new ModelListCache({ store: memoryStore(), now });
    await cache.get("ollama", { baseUrl: server.url });
    server.modelLists.setModels([LLAVA]);
    const refreshed = await cache.refresh("ollama", { baseUrl: server.url });
    expect(ids(refreshed.models)).toEqual(["llava:7b"]);
    expect(server.modelLists.requestsTo("/api/tags")).toHaveLength(2);
  });

  it("lets callers asking at once share one request", async () => {
    const cache = new ModelListCache({ store: memoryStore(), now });
    server.modelLists.delay("/api/tags", 100);
    const results = await Promise.all([
      cache.get("ollama", { baseUrl: server.url }),
      cache.refresh("ollama", { baseUrl: server.url }),
      cache.get("ollama", { baseUrl: `${server.url}/v1` }),
    ]);
    expect(results.map((r) => ids(r.models))).toEqual([["qwen3:8b"], ["qwen3:8b"], ["qwen3:8b"]]);
    expect(server.modelLists.requestsTo("/api/tags")).toHaveLength(1);
  });

  it("lets one caller give up without failing the others sharing its request", async () => {
    const cache = new ModelListCache({ store: memoryStore(), now });
    server.modelLists.delay("/api/tags", 200);
    const controller = new AbortController();
    const impatient = cache.get("ollama", { baseUrl: server.url, signal: controller.signal });
    const patient = cache.get("ollama", { baseUrl: server.url });
    controller.abort();
    await expect(impatient).rejects.toMatchObject({ kind: "aborted" });
    expect(ids((await patient).models)).toEqual(["qwen3:8b"]);
    // The request went on: the list is now cached.
    expect(await cache.peek("ollama", server.url)).toMatchObject({ fromCache: true });
  });

  it("keeps the last good list when a refresh fails, and reports why", async () => {
    const cache = new ModelListCache({ store: memoryStore(), now });
    const good = await cache.get("ollama", { baseUrl: server.url });
    server.modelLists.fail("/api/tags", { status: 500, body: { error: "disk full" } });
    clock += 1000;
    const kept = await cache.refresh("ollama", { baseUrl: server.url });
    expect(kept.models).toEqual(good.models);
    expect(kept.fetchedAt).toBe(good.fetchedAt);
    expect(kept.fromCache).toBe(true);
    expect(kept.error).toBeInstanceOf(ModelListError);
    expect(kept.error?.message).toMatch(/answered \/api\/tags with HTTP 500 \(it said: disk full\)/);
    // A stale list is kept too.
    clock += 2 * HOUR;
    expect((await cache.get("ollama", { baseUrl: server.url })).error?.kind).toBe("http");
  });

  it("throws when a read fails and there is no list to fall back on", async () => {
    const cache = new ModelListCache({ store: memoryStore(), now });
    const port = await freePort();
    await expect(cache.get("ollama", { baseUrl: `http://127.0.0.1:${port}` })).rejects.toMatchObject({ kind: "unreachable" });
  });

  it("keeps lists per provider and server, in the store, for the next session", async () => {
    const store = memoryStore();
    const cache = new ModelListCache({ store, now });
    server.modelLists.setModels([QWEN, CLAUDE]);
    await cache.get("ollama", { baseUrl: server.url });
    await cache.get("openrouter", { baseUrl: server.openaiBaseUrl, apiKey: "sk-or-v1-secret" });
    await cache.flush();
    const saved = store.sets.at(-1);
    expect(Object.keys(saved?.lists ?? {}).sort()).toEqual([modelListCacheKey("ollama", server.url), modelListCacheKey("openrouter", server.openaiBaseUrl)].sort());
    expect(JSON.stringify(saved)).not.toContain("sk-or-v1-secret");

    const requestsBefore = server.modelLists.requests.length;
    const next = new ModelListCache({ store, now });
    expect(ids((await next.get("ollama", { baseUrl: server.url })).models)).toEqual(["qwen3:8b", "anthropic/claude-sonnet-5-5"]);
    const openRouter = await next.peek("openrouter", server.openaiBaseUrl);
    expect(openRouter?.models.find((m) => m.id === CLAUDE.id)?.info.inputPrice).toBe(2);
    expect(await next.peek("lmstudio", server.url)).toBeUndefined();
    expect(server.modelLists.requests.length).toBe(requestsBefore);
  });

  it("ignores a stored record it cannot read, and stored entries that are not lists", async () => {
    const key = modelListCacheKey("ollama", server.url);
    for (const stored of ["garbage", { version: 2, lists: {} }, { version: 1, lists: { [key]: { provider: "ollama", server: "x", fetchedAt: clock, models: "no" } } }]) {
      const cache = new ModelListCache({ store: memoryStore(stored), now });
      expect(await cache.peek("ollama", server.url)).toBeUndefined();
    }
    // A list from the future (the clock went back) is not fresh.
    const future = { version: 1, lists: { [key]: { provider: "ollama", server: "x", fetchedAt: clock + HOUR, models: [{ id: "old", info: {} }] } } };
    const cache = new ModelListCache({ store: memoryStore(future), now });
    expect(ids((await cache.get("ollama", { baseUrl: server.url })).models)).toEqual(["qwen3:8b"]);
  });

  it("keeps lists in a JSON file for the CLI; a missing or broken file is an empty cache", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tandem-model-lists-"));
    try {
      const path = join(dir, "nested", "model-lists.json");
      const cache = new ModelListCache({ store: jsonFileModelListStore(path), now });
      expect(await cache.peek("ollama", server.url)).toBeUndefined();
      await cache.get("ollama", { baseUrl: server.url });
      await cache.flush();
      const record = JSON.parse(await readFile(path, "utf8")) as ModelListRecord;
      expect(record.version).toBe(1);
      const reread = new ModelListCache({ store: jsonFileModelListStore(path), now });
      expect(ids((await reread.peek("ollama", server.url))?.models ?? [])).toEqual(["qwen3:8b"]);

      await writeFile(path, "{ not json");
      expect(await new ModelListCache({ store: jsonFileModelListStore(path), now }).peek("ollama", server.url)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("still serves the list when the store cannot save it", async () => {
    const cache = new ModelListCache({
      store: {
        get: () => undefined,
        set: () => {
          throw new Error("disk full");
        },
      },
      now,
    });
    expect(ids((await cache.get("ollama", { baseUrl: server.url })).models)).toEqual(["qwen3:8b"]);
    await cache.flush();
    expect((await cache.get("ollama", { baseUrl: server.url })).fromCache).toBe(true);
  });
});
