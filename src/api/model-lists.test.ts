/**
 * The parsing of the servers' model lists, without a server: field by field, what is converted,
 * what is ignored, and the bounds. The fetching (sockets, timeouts, errors) is
 * test/api/model-lists.test.ts.
 */
import { describe, expect, it } from "vitest";
import { resolveModel } from "./model-info.js";
import {
  checkListedModels,
  listedModelListing,
  modelListServer,
  ModelListError,
  ollamaListedModel,
  parseLmStudioModels,
  parseOllamaShow,
  parseOllamaTags,
  parseOpenRouterModels,
  pricePerMillion,
  serverModelSource,
  tokenCount,
} from "./model-lists.js";

/** An entry as OpenRouter's GET /api/v1/models sends it (fields of its published schema). */
const OPENROUTER_CLAUDE = {
  id: "anthropic/claude-sonnet-5-5",
  canonical_slug: "anthropic/claude-sonnet-5-5",
  name: "Anthropic: Claude Sonnet 5.5",
  created: 1_760_000_000,
  description: "…",
  context_length: 1_000_000,
  architecture: { modality: "text+image->text", input_modalities: ["text", "image", "file"], output_modalities: ["text"], tokenizer: "Claude", instruct_type: null },
  pricing: { prompt: "0.000002", completion: "0.00001", request: "0", image: "0", input_cache_read: "0.0000001", input_cache_write: "0.0000025" },
  top_provider: { context_length: 1_000_000, max_completion_tokens: 128_000, is_moderated: true },
  per_request_limits: null,
  supported_parameters: ["include_reasoning", "max_tokens", "reasoning", "stop", "temperature", "tool_choice", "tools", "top_p"],
};

function expectListError(fn: () => unknown, kind: ModelListError["kind"], message?: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelListError);
    expect((error as ModelListError).kind).toBe(kind);
    if (message) expect((error as ModelListError).message).toMatch(message);
    return;
  }
  throw new Error(`expected a ${kind} ModelListError`);
}

describe("modelListServer", () => {
  it("uses the registry's default base URLs", () => {
    expect(modelListServer("openrouter").url).toBe("https://openrouter.ai/api/v1");
    expect(modelListServer("ollama").url).toBe("http://127.0.0.1:11434");
    expect(modelListServer("lmstudio").url).toBe("http://127.0.0.1:1234");
    expect(modelListServer("ollama", "   ").url).toBe("http://127.0.0.1:11434");
  });

  it("names the local servers by their root: a trailing /v1 and slashes go, a bare host:port gets http://", () => {
    expect(modelListServer("ollama", "http://localhost:11434/v1/").url).toBe("http://localhost:11434");
    expect(modelListServer("lmstudio", "http://10.0.0.5:1234/v1").url).toBe("http://10.0.0.5:1234");
    expect(modelListServer("ollama", "127.0.0.1:11434").url).toBe("http://127.0.0.1:11434");
    expect(modelListServer("ollama", "https://ollama.example.com/proxy/v1").url).toBe("https://ollama.example.com/proxy");
    // OpenRouter's base is its API's: /v1 stays.
    expect(modelListServer("openrouter", "https://proxy.example.com/api/v1/").url).toBe("https://proxy.example.com/api/v1");
  });

  it("shows the server without credentials or query", () => {
    const server = modelListServer("ollama", "http://user:secret@127.0.0.1:11434/v1?token=abc");
    expect(server.shown).toBe("http://127.0.0.1:11434");
    expect(server.name).toBe("Ollama");
  });

  it("refuses what is not an http(s) URL, and providers whose models are not read from a server", () => {
    expectListError(() => modelListServer("lmstudio", "http://[::1"), "bad_url", /LM Studio base URL/);
    expectListError(() => modelListServer("openrouter", "ftp://example.com"), "bad_url", /http:\/\/ or https:\/\//);
    expectListError(() => modelListServer("anthropic"), "unsupported", /Anthropic has no model list/);
    expect(serverModelSource("openrouter")).toBe("openrouter");
    expect(serverModelSource("ollama")).toBe("ollama");
    expect(serverModelSource("lmstudio")).toBe("lmstudio");
    expect(serverModelSource("openai")).toBeUndefined();
    expect(serverModelSource("vscode-lm")).toBeUndefined();
  });
});

describe("pricePerMillion and tokenCount", () => {
  it("turns OpenRouter's USD per token into USD per million, without float noise", () => {
    expect(pricePerMillion("0.000003")).toBe(3);
    expect(pricePerMillion("0.0000003")).toBe(0.3);
    expect(pricePerMillion("0.00000125")).toBe(1.25);
    expect(pricePerMillion("0.000000075")).toBe(0.075);
    expect(pricePerMillion("0")).toBe(0);
    expect(pricePerMillion("1e-6")).toBe(1);
    expect(pricePerMillion(0.000015)).toBe(15);
  });

  it("ignores negative (per-request router), malformed and absurd prices", () => {
    for (const bad of ["-1", "", "abc", "0x10", "1,5", null, undefined, {}, Number.NaN, Infinity, "5"]) {
      expect(pricePerMillion(bad), String(bad)).toBeUndefined();
    }
  });

  it("takes only positive finite numbers as token counts", () => {
    expect(tokenCount(128_000)).toBe(128_000);
    expect(tokenCount(131_072.7)).toBe(131_072);
    for (const bad of ["128000", 0, -5, Number.NaN, Infinity, 1e12, null, true]) expect(tokenCount(bad), String(bad)).toBeUndefined();
  });
});

describe("parseOpenRouterModels", () => {
  it("reads window, output limit, prices, images, reasoning, temperature and tools", () => {
    const [model] = parseOpenRouterModels({ data: [OPENROUTER_CLAUDE] }) ?? [];
    expect(model).toEqual({
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
    });
  });

  it("says no reasoning, no temperature, no tools, no images when the lists say so", () => {
    const [model] =
      parseOpenRouterModels({
        data: [{ id: "openai/o-mini", context_length: 200_000, architecture: { input_modalities: ["text"] }, supported_parameters: ["max_tokens", "seed"], pricing: { prompt: "0.0000011", completion: "0.0000044" } }],
      }) ?? [];
    expect(model?.info).toEqual({ contextWindow: 200_000, inputPrice: 1.1, outputPrice: 4.4, supportsImages: false, thinking: "none", supportsThinking: false, supportsTemperature: false });
    expect(model?.supportsTools).toBe(false);
  });

  it("leaves out what it does not say, so the catalogue or the defaults fill it", () => {
    const [model] = parseOpenRouterModels({ data: [{ id: "mystery/model" }] }) ?? [];
    expect(model).toEqual({ id: "mystery/model", info: {} });
    const resolved = resolveModel("openrouter", model?.id, undefined, model?.info);
    expect(resolved.info.contextWindow).toBe(128_000);
  });

  it("ignores fields of the wrong type instead of trusting them", () => {
    const [model] =
      parseOpenRouterModels({
        data: [
          {
            id: "bad/fields",
            name: 42,
            context_length: "1000000",
            pricing: { prompt: "-1", completion: "free", input_cache_read: null },
            top_provider: { max_completion_tokens: "lots" },
            architecture: "text->text",
            supported_parameters: "tools",
          },
        ],
      }) ?? [];
    expect(model).toEqual({ id: "bad/fields", info: {} });
  });

  it("falls back to the older modality string and the top provider's window; bounds the output by the window", () => {
    const [model] =
      parseOpenRouterModels({ data: [{ id: "x/y", architecture: { modality: "text+image->text" }, top_provider: { context_length: 32_768, max_completion_tokens: 65_536 } }] }) ?? [];
    expect(model?.info).toEqual({ contextWindow: 32_768, maxOutputTokens: 32_768, supportsImages: true });
  });

  it("drops entries without a usable id, keeps the first of duplicates, and caps the count", () => {
    const data = [
      { id: "" },
      { id: 7 },
      { id: "has\nnewline" },
      { id: "x".repeat(300) },
      null,
      "string",
      { id: " spaced/model " },
      { id: "spaced/model", name: "second" },
      { id: "a/b" },
      { id: "c/d" },
    ];
    expect(parseOpenRouterModels({ data })?.map((m) => m.id)).toEqual(["spaced/model", "a/b", "c/d"]);
    expect(parseOpenRouterModels({ data }, 2)?.map((m) => m.id)).toEqual(["spaced/model", "a/b"]);
  });

  it("strips control characters from names and shortens long ones", () => {
    const [model] = parseOpenRouterModels({ data: [{ id: "a/b", name: `Evil\u001b[31m name ${"n".repeat(500)}` }] }) ?? [];
    expect(model?.name).toMatch(/^Evil \[31m name n+$/);
    expect(model?.name?.length).toBe(200);
  });

  it("is not a model list unless it has a data array", () => {
    for (const body of [null, [], "list", { data: {} }, { models: [] }, { data: "[]" }]) expect(parseOpenRouterModels(body)).toBeUndefined();
    expect(parseOpenRouterModels({ data: [] })).toEqual([]);
  });

  it("does not reach Object.prototype through a server's keys", () => {
    const body: unknown = JSON.parse('{"data":[{"id":"p/q","__proto__":{"context_length":5},"pricing":{"__proto__":{"prompt":"1"}}}]}');
    expect(parseOpenRouterModels(body)).toEqual([{ id: "p/q", info: {} }]);
    expect(({} as Record<string, unknown>).context_length).toBeUndefined();
  });
});

describe("Ollama", () => {
  const SHOW = {
    license: "…",
    modelfile: "FROM …",
    parameters: 'stop "<|eot_id|>"',
    template: "{{ .Prompt }}",
    details: { format: "gguf", family: "qwen3", parameter_size: "8.2B", quantization_level: "Q4_K_M" },
    model_info: { "general.architecture": "qwen3", "general.parameter_count": 8_190_735_360, "qwen3.context_length": 40_960, "qwen3.embedding_length": 4096 },
    capabilities: ["completion", "tools", "thinking"],
  };

  it("lists the names of /api/tags, falling back to `model`", () => {
    const body = { models: [{ name: "qwen3:8b", model: "qwen3:8b", size: 5 }, { model: "llava:7b" }, { name: "qwen3:8b" }, { name: 3 }, {}] };
    expect(parseOllamaTags(body)).toEqual(["qwen3:8b", "llava:7b"]);
    expect(parseOllamaTags({ models: [] })).toEqual([]);
    for (const bad of [null, { models: "x" }, { data: [] }, []]) expect(parseOllamaTags(bad)).toBeUndefined();
  });

  it("reads the window of the model's architecture, its capabilities, and no prices", () => {
    expect(parseOllamaShow(SHOW)).toEqual({
      info: {
        contextWindow: 40_960,
        inputPrice: 0,
        outputPrice: 0,
        cacheWritePrice: 0,
        cacheReadPrice: 0,
        supportsPromptCache: false,
        supportsTemperature: true,
        supportsImages: false,
        thinking: "adaptive",
        supportsThinking: true,
      },
      supportsTools: true,
      chats: true,
    });
    expect(parseOllamaShow({ ...SHOW, capabilities: ["completion", "vision"] })?.info).toMatchObject({ supportsImages: true, thinking: "none" });
  });

  it("caps the window by a Modelfile's num_ctx, the window Ollama then serves", () => {
    expect(parseOllamaShow({ ...SHOW, parameters: 'num_ctx 8192\nstop "x"' })?.info.contextWindow).toBe(8192);
    expect(parseOllamaShow({ ...SHOW, parameters: "num_ctx 99999999" })?.info.contextWindow).toBe(40_960);
    expect(parseOllamaShow({ ...SHOW, model_info: {}, parameters: "num_ctx 4096" })?.info.contextWindow).toBe(4096);
  });

  it("ignores a window that is not a number, or filed under another architecture", () => {
    expect(parseOllamaShow({ ...SHOW, model_info: { "general.architecture": "qwen3", "qwen3.context_length": "40960" } })?.info.contextWindow).toBeUndefined();
    expect(parseOllamaShow({ ...SHOW, model_info: { "general.architecture": "llama", "qwen3.context_length": 40_960 } })?.info.contextWindow).toBeUndefined();
    expect(parseOllamaShow({ ...SHOW, model_info: { "general.architecture": "../x", "../x.context_length": 5 } })?.info.contextWindow).toBeUndefined();
    expect(parseOllamaShow({ ...SHOW, model_info: "nope" })?.info.contextWindow).toBeUndefined();
  });

  it("says nothing of capabilities an old Ollama does not report", () => {
    const { capabilities: _capabilities, ...old } = SHOW;
    const details = parseOllamaShow(old);
    expect(details?.chats).toBe(true);
    expect(details?.supportsTools).toBeUndefined();
    expect(details?.info.supportsImages).toBeUndefined();
    expect(details?.info.thinking).toBeUndefined();
    expect(parseOllamaShow("not an object")).toBeUndefined();
  });

  it("leaves out a model that only embeds; keeps one whose details could not be read", () => {
    expect(ollamaListedModel("nomic-embed-text:latest", parseOllamaShow({ ...SHOW, capabilities: ["embedding"] }))).toBeUndefined();
    expect(ollamaListedModel("qwen3:8b", undefined)).toEqual({
      id: "qwen3:8b",
      info: { inputPrice: 0, outputPrice: 0, cacheWritePrice: 0, cacheReadPrice: 0, supportsPromptCache: false },
    });
    expect(ollamaListedModel("qwen3:8b", parseOllamaShow(SHOW))).toMatchObject({ id: "qwen3:8b", supportsTools: true, info: { contextWindow: 40_960 } });
  });
});

describe("parseLmStudioModels", () => {
  const V1 = {
    object: "list",
    data: [
      { id: "qwen2-vl-7b-instruct", object: "model", owned_by: "organization_owner" },
      { id: "meta-llama-3.1-8b-instruct", object: "model", owned_by: "organization_owner" },
      { id: "text-embedding-nomic-embed-text-v1.5", object: "model", owned_by: "organization_owner" },
    ],
  };
  const V0 = {
    object: "list",
    data: [
      { id: "qwen2-vl-7b-instruct", object: "model", type: "vlm", arch: "qwen2_vl", state: "not-loaded", max_context_length: 32_768, capabilities: [] },
      { id: "meta-llama-3.1-8b-instruct", object: "model", type: "llm", arch: "llama", state: "loaded", max_context_length: 131_072, capabilities: ["tool_use"] },
      { id: "text-embedding-nomic-embed-text-v1.5", object: "model", type: "embeddings", max_context_length: 2048 },
      { id: "downloaded-not-served", object: "model", type: "llm", max_context_length: 4096 },
    ],
  };
  const LOCAL = { inputPrice: 0, outputPrice: 0, cacheWritePrice: 0, cacheReadPrice: 0, supportsPromptCache: false, supportsTemperature: true };

  it("lists what /v1/models serves, with /api/v0's window, type and capabilities; embedders left out", () => {
    expect(parseLmStudioModels(V1, V0)).toEqual([
      { id: "qwen2-vl-7b-instruct", info: { ...LOCAL, contextWindow: 32_768, supportsImages: true }, supportsTools: false },
      { id: "meta-llama-3.1-8b-instruct", info: { ...LOCAL, contextWindow: 131_072, supportsImages: false }, supportsTools: true },
    ]);
  });

  it("lists the ids alone when the server has no /api/v0", () => {
    expect(parseLmStudioModels(V1, undefined)?.map((m) => m.id)).toEqual(["qwen2-vl-7b-instruct", "meta-llama-3.1-8b-instruct", "text-embedding-nomic-embed-text-v1.5"]);
    expect(parseLmStudioModels(V1, { error: "Unexpected endpoint" })?.[0]).toEqual({ id: "qwen2-vl-7b-instruct", info: LOCAL });
  });

  it("ignores a bad window from /api/v0 and is no list without /v1's data", () => {
    const [model] = parseLmStudioModels(V1, { data: [{ id: "qwen2-vl-7b-instruct", max_context_length: "32768", type: 5 }] }) ?? [];
    expect(model?.info.contextWindow).toBeUndefined();
    expect(model?.info.supportsImages).toBeUndefined();
    expect(parseLmStudioModels({ models: [] }, V0)).toBeUndefined();
  });
});

describe("checkListedModels", () => {
  it("keeps the well-formed entries and fields of a stored list", () => {
    const stored = [
      { id: "a", name: "A", info: { contextWindow: 100, inputPrice: 0.5, supportsImages: true, thinking: "adaptive", supportsThinking: false }, supportsTools: true },
      { id: "b", info: { contextWindow: "100", inputPrice: -1, supportsImages: "yes", thinking: "sometimes", longPromptPricing: {} } },
      { id: "", info: {} },
      { id: "c" },
      "d",
    ];
    expect(checkListedModels(stored)).toEqual([
      // supportsThinking always follows thinking.
      { id: "a", name: "A", info: { contextWindow: 100, inputPrice: 0.5, supportsImages: true, thinking: "adaptive", supportsThinking: true }, supportsTools: true },
      { id: "b", info: {} },
    ]);
    expect(checkListedModels({ a: 1 })).toBeUndefined();
  });
});

describe("listedModelListing", () => {
  it("puts what the list says over the catalogue", () => {
    const [model] = parseOpenRouterModels({ data: [{ ...OPENROUTER_CLAUDE, pricing: { prompt: "0.000003", completion: "0.000015" }, context_length: 200_000 }] }) ?? [];
    if (!model) throw new Error("no model");
    const listing = listedModelListing("openrouter", model);
    expect(listing).toMatchObject({ provider: "openrouter", id: "anthropic/claude-sonnet-5-5", contextWindow: 200_000, inputPrice: 3, outputPrice: 15, thinking: "adaptive", status: "active" });
    // Cache prices the list leaves out come from the catalogue's Claude Sonnet 5.5.
    expect(listing.cacheReadPrice).toBe(0.1);
  });

  it("gives a local model its window and no prices", () => {
    const model = ollamaListedModel("qwen3:8b", parseOllamaShow({ model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40_960 }, capabilities: ["completion"] }));
    if (!model) throw new Error("no model");
    expect(listedModelListing("ollama", model)).toMatchObject({ id: "qwen3:8b", contextWindow: 40_960, inputPrice: 0, outputPrice: 0, thinking: "none" });
  });
});
