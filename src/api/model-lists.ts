/**
 * The model lists read from the server for the presets whose models only the server knows:
 * OpenRouter (GET {base}/models), Ollama (GET /api/tags, then POST /api/show per model) and
 * LM Studio (GET /v1/models, enriched by its own GET /api/v0/models when it has it).
 *
 * The parsing is pure (exported for the unit tests); the fetching around it bounds everything a
 * server can send (time, bytes, models) and turns every failure into a `ModelListError` whose
 * message says what to do. Nothing a server sends is trusted: a field of the wrong type is left
 * out, so the catalogue or the conservative defaults of `resolveModel` fill it instead.
 */
import { PROVIDERS, type ModelSource, type ProviderId } from "../shared/providers.js";
import { modelListing, resolveModel, type ModelListing } from "./model-info.js";
import type { ModelInfo, ThinkingMode } from "./types.js";

/** One model as the server lists it; `info` is what `resolveModel`'s `listed` takes. */
export interface ListedModel {
  id: string;
  /** A display name, when the server gives one (OpenRouter). */
  name?: string;
  info: Partial<ModelInfo>;
  /** Whether the server says the model calls tools natively; absent when it does not say. */
  supportsTools?: boolean;
}

/** The model sources read from a server by this module. */
export type ServerModelSource = Extract<ModelSource, "openrouter" | "ollama" | "lmstudio">;

export type ModelListErrorKind =
  /** The provider's models are not read from a server (the catalogue, VS Code). */
  | "unsupported"
  | "bad_url"
  /** Connection refused, host not found, connection dropped. */
  | "unreachable"
  | "timeout"
  /** The caller's signal aborted. */
  | "aborted"
  /** 401 or 403. */
  | "auth"
  /** Any other HTTP error status. */
  | "http"
  /** Not JSON, or JSON that is not a model list. */
  | "bad_response"
  | "too_large"
  /** The server lists no model a task could use. */
  | "empty";

export class ModelListError extends Error {
  override readonly name = "ModelListError";

  constructor(
    readonly kind: ModelListErrorKind,
    message: string,
    /** The HTTP status, for "auth" and "http". */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchModelListOptions {
  /** The provider's base URL setting; the registry's default when absent. */
  baseUrl?: string;
  /** OpenRouter only: sent as a Bearer token (the list is public, but a key may widen it). */
  apiKey?: string;
  signal?: AbortSignal;
  /** Defaults to the global fetch (tests may inject one). */
  fetch?: typeof globalThis.fetch;
  /** For the whole listing, every request included (default 10 s). */
  timeoutMs?: number;
  /** Largest body read per response (default 8 MiB). */
  maxBytes?: number;
  /** Models kept at most, in the server's order (default 5000). */
  maxModels?: number;
}

export const MODEL_LIST_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 8 * 1024 * 1024,
  maxModels: 5_000,
  /** Ollama's /api/show calls in flight at once: it reads each model's file, so a few at a time. */
  showConcurrency: 4,
} as const;

const SERVER_SOURCES: ReadonlySet<ModelSource> = new Set<ServerModelSource>(["openrouter", "ollama", "lmstudio"]);

/** Where the provider's model list comes from, when it is read from a server. */
export function serverModelSource(provider: ProviderId): ServerModelSource | undefined {
  const source = PROVIDERS[provider].models;
  return SERVER_SOURCES.has(source) ? (source as ServerModelSource) : undefined;
}

/** The server a model list is read from. */
export interface ModelListServer {
  source: ServerModelSource;
  /** "Ollama", as messages name it. */
  name: string;
  /** OpenRouter: the API base ({base}/models); Ollama and LM Studio: the server's root, without /v1. */
  url: string;
  /** `url` without credentials or query, for messages and cache keys. */
  shown: string;
}

/**
 * The server to ask. Ollama and LM Studio are named by their root: a trailing /v1 (the
 * OpenAI-compatible API's base, which people often paste) is dropped, and a bare "host:port"
 * (how OLLAMA_HOST is often written) gets http://.
 */
export function modelListServer(provider: ProviderId, baseUrl?: string): ModelListServer {
  const source = serverModelSource(provider);
  const name = PROVIDERS[provider].name;
  if (!source) throw new ModelListError("unsupported", `${name} has no model list to read from a server.`);
  const given = baseUrl?.trim() || PROVIDERS[provider].defaultBaseUrl || "";
  const withScheme = source !== "openrouter" && !/^[a-z][a-z\d+.-]*:\/\//i.test(given) ? `http://${given}` : given;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw new ModelListError("bad_url", `The ${name} base URL "${given.slice(0, 200)}" is not a valid URL.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ModelListError("bad_url", `The ${name} base URL must start with http:// or https://, got ${parsed.protocol}.`);
  }
  parsed.search = "";
  parsed.hash = "";
  let path = parsed.pathname.replace(/\/+$/, "");
  if (source !== "openrouter") path = path.replace(/\/v1$/, "");
  parsed.pathname = path || "/";
  const url = parsed.href.replace(/\/+$/, "");
  return { source, name, url, shown: `${parsed.protocol}//${parsed.host}${path}` };
}

/** Reads the provider's model list from its server. Throws only `ModelListError`. */
export async function fetchModelList(provider: ProviderId, options: FetchModelListOptions = {}): Promise<ListedModel[]> {
  const server = modelListServer(provider, options.baseUrl);
  const timeoutMs = options.timeoutMs ?? MODEL_LIST_DEFAULTS.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const ctx: Context = {
    provider,
    server,
    fetch: options.fetch ?? globalThis.fetch,
    caller: options.signal,
    timeout,
    timeoutMs,
    signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    maxBytes: options.maxBytes ?? MODEL_LIST_DEFAULTS.maxBytes,
    maxModels: options.maxModels ?? MODEL_LIST_DEFAULTS.maxModels,
    apiKey: server.source === "openrouter" ? options.apiKey?.trim() || undefined : undefined,
  };
  try {
    const models = await LISTERS[server.source](ctx);
    if (models.length === 0) throw new ModelListError("empty", EMPTY_HINT[server.source](server));
    return models;
  } catch (error) {
    const failure = error instanceof ModelListError ? error : new ModelListError("bad_response", `${server.name} at ${server.shown}: ${String(error)}`);
    // Belt and braces: no message, whatever a server echoed into it, carries the key.
    if (ctx.apiKey && failure.message.includes(ctx.apiKey)) {
      throw new ModelListError(failure.kind, failure.message.split(ctx.apiKey).join("[key]"), failure.status);
    }
    throw failure;
  }
}

/** A row for the settings view's model picker: what the list says, over the catalogue. */
export function listedModelListing(provider: ProviderId, model: ListedModel): ModelListing {
  return modelListing(provider, model.id, resolveModel(provider, model.id, undefined, model.info).info, "active");
}

// ---------------------------------------------------------------------------------------------
// Parsing (pure)
// ---------------------------------------------------------------------------------------------

const MAX_ID_LENGTH = 256;
const MAX_NAME_LENGTH = 200;
/** Larger than any real window; a bigger number is a server's mistake, not a window. */
const MAX_TOKENS = 1_000_000_000;
/** USD per million tokens; above this a price is nonsense. */
const MAX_PRICE = 1_000_000;

/** C0 and C1 control characters (a model id with a newline or an escape is a hostile server's). */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function withoutControls(text: string): string {
  return Array.from(text, (char) => (isControl(char) ? " " : char)).join("");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own property only: a server's JSON must not reach Object.prototype. */
function field(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function recordField(record: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = field(record, key);
  return isRecord(value) ? value : undefined;
}

/** The strings of an array field; undefined when the field is not an array. */
function stringsField(record: Record<string, unknown>, key: string): string[] | undefined {
  const value = field(record, key);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

/** A model id the picker can show and a request can carry back. */
function modelId(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 4 * MAX_ID_LENGTH) return undefined;
  const id = value.trim();
  return id && id.length <= MAX_ID_LENGTH && !Array.from(id).some(isControl) ? id : undefined;
}

function displayName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = withoutControls(value.slice(0, 4 * MAX_NAME_LENGTH)).trim();
  return name ? name.slice(0, MAX_NAME_LENGTH) : undefined;
}

/** A token count: a positive finite number (a string, null or NaN is ignored). */
export function tokenCount(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 1 || value > MAX_TOKENS) return undefined;
  return Math.floor(value);
}

/**
 * OpenRouter's price of one token (a decimal string, "0.000003") as USD per million tokens,
 * rounded to shed the float noise of the multiplication. Negative ("-1": priced per request,
 * as its router models are), malformed or absurd prices are ignored.
 */
export function pricePerMillion(value: unknown): number | undefined {
  const perToken = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+(\.\d+)?(e-?\d+)?\s*$/i.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(perToken) || perToken < 0) return undefined;
  const perMillion = Math.round(perToken * 1e12) / 1e6;
  return perMillion <= MAX_PRICE ? perMillion : undefined;
}

function withThinking(thinking: ThinkingMode): Pick<ModelInfo, "thinking" | "supportsThinking"> {
  return { thinking, supportsThinking: thinking !== "none" };
}

/** Drops the undefined fields, so JSON round trips and merges over the catalogue keep their meaning. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The first `max` entries with a valid, not yet seen id. */
function collect<T>(items: readonly unknown[], max: number, parse: (item: unknown) => (T & { id: string }) | undefined): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    if (out.length >= max) break;
    const parsed = parse(item);
    if (parsed && !seen.has(parsed.id)) {
      seen.add(parsed.id);
      out.push(parsed);
    }
  }
  return out;
}

/** The `data` array of an OpenAI-style list (`{object: "list", data: [...]}`); undefined for anything else. */
function dataArray(body: unknown): unknown[] | undefined {
  if (!isRecord(body)) return undefined;
  const data = field(body, "data");
  return Array.isArray(data) ? data : undefined;
}

/** OpenRouter's GET /models body; undefined when it is not a model list. */
export function parseOpenRouterModels(body: unknown, maxModels: number = MODEL_LIST_DEFAULTS.maxModels): ListedModel[] | undefined {
  const data = dataArray(body);
  return data && collect(data, maxModels, openRouterModel);
}

function openRouterModel(item: unknown): ListedModel | undefined {
  if (!isRecord(item)) return undefined;
  const id = modelId(field(item, "id"));
  if (!id) return undefined;
  const top = recordField(item, "top_provider") ?? {};
  const pricing = recordField(item, "pricing") ?? {};
  const architecture = recordField(item, "architecture") ?? {};
  const params = stringsField(item, "supported_parameters");
  const contextWindow = tokenCount(field(item, "context_length")) ?? tokenCount(field(top, "context_length"));
  const maxOutput = tokenCount(field(top, "max_completion_tokens"));
  const cacheRead = pricePerMillion(field(pricing, "input_cache_read"));
  const cacheWrite = pricePerMillion(field(pricing, "input_cache_write"));
  const info: Partial<ModelInfo> = {
    contextWindow,
    // An output limit above the window would be a server's slip; the window bounds it.
    maxOutputTokens: maxOutput !== undefined && contextWindow !== undefined ? Math.min(maxOutput, contextWindow) : maxOutput,
    inputPrice: pricePerMillion(field(pricing, "prompt")),
    outputPrice: pricePerMillion(field(pricing, "completion")),
    cacheReadPrice: cacheRead,
    cacheWritePrice: cacheWrite,
    // Listed cache prices mean the route caches; their absence says nothing either way.
    supportsPromptCache: cacheRead !== undefined || cacheWrite !== undefined ? true : undefined,
    supportsImages: openRouterTakesImages(architecture),
    ...(params ? withThinking(params.includes("reasoning") || params.includes("include_reasoning") ? "adaptive" : "none") : {}),
    supportsTemperature: params ? params.includes("temperature") : undefined,
  };
  return compact({ id, name: displayName(field(item, "name")), info: compact(info), supportsTools: params ? params.includes("tools") : undefined });
}

/** `input_modalities`, or the older "text+image->text" `modality`; undefined when neither says. */
function openRouterTakesImages(architecture: Record<string, unknown>): boolean | undefined {
  const inputs = stringsField(architecture, "input_modalities");
  if (inputs) return inputs.includes("image");
  const modality = field(architecture, "modality");
  const [inputSide, outputSide] = typeof modality === "string" ? modality.split("->") : [];
  return inputSide !== undefined && outputSide !== undefined ? inputSide.split("+").includes("image") : undefined;
}

/** Local servers bill nothing, and have no prompt cache priced apart. */
const LOCAL_PRICES: Partial<ModelInfo> = { inputPrice: 0, outputPrice: 0, cacheWritePrice: 0, cacheReadPrice: 0, supportsPromptCache: false };

/** Ollama's GET /api/tags body: the model names; undefined when it is not a model list. */
export function parseOllamaTags(body: unknown, maxModels: number = MODEL_LIST_DEFAULTS.maxModels): string[] | undefined {
  if (!isRecord(body)) return undefined;
  const models = field(body, "models");
  if (!Array.isArray(models)) return undefined;
  return collect<{ id: string }>(models, maxModels, (item) => {
    const id = isRecord(item) ? (modelId(field(item, "name")) ?? modelId(field(item, "model"))) : undefined;
    return id === undefined ? undefined : { id };
  }).map(({ id }) => id);
}

/** What Ollama's POST /api/show says of one model. */
export interface OllamaModelDetails {
  info: Partial<ModelInfo>;
  supportsTools?: boolean;
  /** False for a model that only embeds: it cannot chat, so it is not listed. */
  chats: boolean;
}

/**
 * Ollama's POST /api/show body. The window is the architecture's `context_length`, capped by a
 * `num_ctx` the Modelfile sets, since that is the window Ollama then serves (it truncates
 * beyond it without a word).
 */
export function parseOllamaShow(body: unknown): OllamaModelDetails | undefined {
  if (!isRecord(body)) return undefined;
  const capabilities = stringsField(body, "capabilities");
  const modelInfo = recordField(body, "model_info") ?? {};
  const arch = field(modelInfo, "general.architecture");
  const trained = typeof arch === "string" && /^[\w.-]{1,64}$/.test(arch) ? tokenCount(field(modelInfo, `${arch}.context_length`)) : undefined;
  const parameters = field(body, "parameters");
  const numCtxText = typeof parameters === "string" ? /^\s*num_ctx\s+(\d{1,10})\s*$/m.exec(parameters)?.[1] : undefined;
  const numCtx = numCtxText === undefined ? undefined : tokenCount(Number(numCtxText));
  const contextWindow = trained !== undefined && numCtx !== undefined ? Math.min(trained, numCtx) : (trained ?? numCtx);
  const info: Partial<ModelInfo> = {
    contextWindow,
    ...LOCAL_PRICES,
    supportsTemperature: true,
    supportsImages: capabilities ? capabilities.includes("vision") : undefined,
    ...(capabilities ? withThinking(capabilities.includes("thinking") ? "adaptive" : "none") : {}),
  };
  const chats = !capabilities || capabilities.includes("completion") || !capabilities.includes("embedding");
  return compact({ info: compact(info), supportsTools: capabilities ? capabilities.includes("tools") : undefined, chats });
}

/** One Ollama model from its name and, when /api/show answered, its details; undefined for an embedder. */
export function ollamaListedModel(name: string, details: OllamaModelDetails | undefined): ListedModel | undefined {
  if (details && !details.chats) return undefined;
  return compact({ id: name, info: details?.info ?? { ...LOCAL_PRICES }, supportsTools: details?.supportsTools });
}

/**
 * LM Studio's GET /v1/models body (the models its OpenAI-compatible API serves), enriched by its
 * GET /api/v0/models body when there is one: window, type (embedders are left out, "vlm" takes
 * images) and capabilities ("tool_use"). Undefined when /v1/models is not a model list.
 */
export function parseLmStudioModels(
  v1Body: unknown,
  v0Body?: unknown,
  maxModels: number = MODEL_LIST_DEFAULTS.maxModels,
): ListedModel[] | undefined {
  const data = dataArray(v1Body);
  if (!data) return undefined;
  const details = new Map<string, Record<string, unknown>>();
  for (const item of dataArray(v0Body) ?? []) {
    const id = isRecord(item) ? modelId(field(item, "id")) : undefined;
    if (id && isRecord(item) && !details.has(id)) details.set(id, item);
  }
  return collect(data, maxModels, (item) => {
    const id = isRecord(item) ? modelId(field(item, "id")) : undefined;
    return id === undefined ? undefined : lmStudioModel(id, details.get(id));
  });
}

function lmStudioModel(id: string, detail: Record<string, unknown> | undefined): ListedModel | undefined {
  const type = detail && field(detail, "type");
  if (type === "embeddings") return undefined;
  const capabilities = detail && stringsField(detail, "capabilities");
  const info: Partial<ModelInfo> = {
    contextWindow: detail && tokenCount(field(detail, "max_context_length")),
    ...LOCAL_PRICES,
    supportsTemperature: true,
    supportsImages: type === "vlm" ? true : type === "llm" ? false : undefined,
  };
  return compact({ id, info: compact(info), supportsTools: capabilities ? capabilities.includes("tool_use") : undefined });
}

const THINKING_MODES: ReadonlySet<unknown> = new Set<ThinkingMode>(["none", "manual", "adaptive"]);
const NUMBER_FIELDS = ["contextWindow", "maxOutputTokens", "inputPrice", "outputPrice", "cacheWritePrice", "cacheReadPrice"] as const;
const BOOLEAN_FIELDS = ["supportsImages", "supportsPromptCache", "supportsThinking", "supportsTemperature"] as const;

/**
 * A list as stored (a cache file, VS Code's globalState) and read back: only well-formed
 * entries and fields survive. Undefined when it is not a list at all.
 */
export function checkListedModels(value: unknown, maxModels: number = MODEL_LIST_DEFAULTS.maxModels): ListedModel[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return collect(value, maxModels, (item) => {
    if (!isRecord(item)) return undefined;
    const id = modelId(field(item, "id"));
    const stored = recordField(item, "info");
    if (!id || !stored) return undefined;
    const info: Record<string, unknown> = {};
    for (const key of NUMBER_FIELDS) {
      const number = field(stored, key);
      if (typeof number === "number" && Number.isFinite(number) && number >= 0) info[key] = number;
    }
    for (const key of BOOLEAN_FIELDS) {
      if (typeof field(stored, key) === "boolean") info[key] = field(stored, key);
    }
    if (THINKING_MODES.has(field(stored, "thinking"))) Object.assign(info, withThinking(field(stored, "thinking") as ThinkingMode));
    const tools = field(item, "supportsTools");
    return compact({ id, name: displayName(field(item, "name")), info: info as Partial<ModelInfo>, supportsTools: typeof tools === "boolean" ? tools : undefined });
  });
}

// ---------------------------------------------------------------------------------------------
// Fetching
// ---------------------------------------------------------------------------------------------

interface Context {
  provider: ProviderId;
  server: ModelListServer;
  fetch: typeof globalThis.fetch;
  caller?: AbortSignal;
  timeout: AbortSignal;
  timeoutMs: number;
  /** The caller's signal and the timeout together: every request and body read listens to it. */
  signal: AbortSignal;
  maxBytes: number;
  maxModels: number;
  apiKey?: string;
}

const LISTERS: Readonly<Record<ServerModelSource, (ctx: Context) => Promise<ListedModel[]>>> = {
  openrouter: async (ctx) => {
    const body = await requestJson(ctx, "/models");
    return parseOpenRouterModels(body, ctx.maxModels) ?? notAList(ctx, "/models");
  },
  ollama: listOllama,
  lmstudio: async (ctx) => {
    // /api/v0 is LM Studio's own (0.3.6 and later); an older server or a proxy without it still lists.
    const [v1, v0] = await Promise.all([requestJson(ctx, "/v1/models"), requestJson(ctx, "/api/v0/models").catch(() => undefined)]);
    return parseLmStudioModels(v1, v0, ctx.maxModels) ?? notAList(ctx, "/v1/models");
  },
};

async function listOllama(ctx: Context): Promise<ListedModel[]> {
  const names = parseOllamaTags(await requestJson(ctx, "/api/tags"), ctx.maxModels) ?? notAList(ctx, "/api/tags");
  const details = await mapLimited(names, MODEL_LIST_DEFAULTS.showConcurrency, async (model) => {
    try {
      return parseOllamaShow(await requestJson(ctx, "/api/show", { model }));
    } catch (error) {
      // One model Ollama cannot describe (a broken blob) still lists, without its details;
      // running out of time or being cancelled ends the whole listing.
      if (ctx.signal.aborted) throw error;
      return undefined;
    }
  });
  return names.flatMap((name, i) => ollamaListedModel(name, details[i]) ?? []);
}

/** `fn` over the items, at most `limit` at once, results in the items' order; the first failure fails all. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function notAList(ctx: Context, path: string): never {
  throw new ModelListError("bad_response", `${where(ctx)} answered ${path} with something that is not a model list.`);
}

function where(ctx: Context): string {
  return `${ctx.server.name} at ${ctx.server.shown}`;
}

/** GET `path`, or POST it with a JSON body; the parsed JSON of a 2xx answer. */
async function requestJson(ctx: Context, path: string, postBody?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (ctx.apiKey) headers.authorization = `Bearer ${ctx.apiKey}`;
  if (postBody !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await ctx.fetch(`${ctx.server.url}${path}`, {
      method: postBody === undefined ? "GET" : "POST",
      headers,
      ...(postBody === undefined ? {} : { body: JSON.stringify(postBody) }),
      signal: ctx.signal,
      // A redirect could carry the key to another host.
      redirect: ctx.apiKey ? "error" : "follow",
    });
  } catch (error) {
    throw transportError(ctx, error);
  }
  if (!response.ok) throw await statusError(ctx, path, response);
  const text = await readCapped(ctx, path, response, ctx.maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ModelListError("bad_response", `${where(ctx)} answered ${path} with something that is not a model list (not JSON).`);
  }
}

/** The body as text, refusing one larger than `maxBytes` without reading the rest. */
async function readCapped(ctx: Context, path: string, response: Response, maxBytes: number): Promise<string> {
  const tooLarge = (): ModelListError =>
    new ModelListError("too_large", `${where(ctx)} answered ${path} with more than ${formatBytes(maxBytes)}; it was not read.`);
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    throw error instanceof ModelListError ? error : transportError(ctx, error);
  }
  return text + decoder.decode();
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} KB`;
}

function formatSeconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`;
}

/** The first `code` on the error, its causes, or the errors of an AggregateError (undici nests them). */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (!isRecord(error) && !(error instanceof Error)) return undefined;
  const record = error as unknown as Record<string, unknown>;
  if (typeof record.code === "string") return record.code;
  if (depth > 4) return undefined;
  const nested = [record.cause, ...(Array.isArray(record.errors) ? record.errors : [])];
  for (const inner of nested) {
    const code = errorCode(inner, depth + 1);
    if (code) return code;
  }
  return undefined;
}

/** How to start the server, for a refused connection. */
const START_HINT: Readonly<Record<ServerModelSource, string>> = {
  openrouter: "check the base URL and your network",
  ollama: "start it with `ollama serve`, or check the base URL",
  lmstudio: "start its server (Developer tab, or `lms server start`), or check the base URL",
};

const EMPTY_HINT: Readonly<Record<ServerModelSource, (server: ModelListServer) => string>> = {
  openrouter: (s) => `${s.name} at ${s.shown} listed no models: check the base URL.`,
  ollama: (s) => `${s.name} at ${s.shown} has no models: pull one with \`ollama pull <model>\` (for example \`ollama pull qwen3\`).`,
  lmstudio: (s) =>
    `${s.name} at ${s.shown} has no chat models: download one in LM Studio (or \`lms get <model>\`), and load it or turn on just-in-time loading.`,
};

function transportError(ctx: Context, error: unknown): ModelListError {
  if (ctx.caller?.aborted) return new ModelListError("aborted", `Reading the ${ctx.server.name} model list was cancelled.`);
  if (ctx.timeout.aborted) {
    const hint = ctx.server.source === "openrouter" ? "check your network and try again" : "it may be busy loading a model; try again, or check the base URL";
    return new ModelListError("timeout", `${where(ctx)} did not answer within ${formatSeconds(ctx.timeoutMs)}: ${hint}.`);
  }
  const code = errorCode(error);
  if (code === "ECONNREFUSED") {
    const subject = ctx.server.source === "openrouter" ? `Could not connect to ${where(ctx)}` : `${ctx.server.name} is not running at ${ctx.server.shown}`;
    return new ModelListError("unreachable", `${subject} (connection refused): ${START_HINT[ctx.server.source]}.`);
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new ModelListError("unreachable", `Could not reach ${where(ctx)}: the host ${new URL(ctx.server.url).hostname} was not found; check the base URL.`);
  }
  const described = describeError(error);
  if (/unexpected redirect/i.test(described)) {
    return new ModelListError("http", `${where(ctx)} redirected the request; with an API key Tandem follows no redirect (it could carry the key elsewhere): set the final URL as the base URL.`);
  }
  if (/bad port/i.test(described)) {
    return new ModelListError("bad_url", `${where(ctx)}: fetch refuses to connect to port ${new URL(ctx.server.url).port} (a port reserved for other protocols); use another port.`);
  }
  return new ModelListError("unreachable", `Could not reach ${where(ctx)}${code ? ` (${code})` : ""}: ${described}; ${START_HINT[ctx.server.source]}.`);
}

function describeError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return sanitize(error instanceof Error ? `${error.message}${cause}` : String(error));
}

/** A server's own words, shortened and without control characters. */
function sanitize(text: string): string {
  return withoutControls(text.slice(0, 1000)).trim().slice(0, 200);
}

async function statusError(ctx: Context, path: string, response: Response): Promise<ModelListError> {
  const status = response.status;
  // The server's own message helps ("model not found"), read from a short prefix of the body.
  const detail = await readCapped(ctx, path, response, 16 * 1024).then(errorMessageOf, () => undefined);
  const said = detail ? ` (it said: ${detail})` : "";
  if (status === 401 || status === 403) {
    if (ctx.server.source === "openrouter") {
      const variable = PROVIDERS[ctx.provider].env.apiKey?.[0];
      const fix = `check the key in the settings${variable ? ` (the CLI reads ${variable})` : ""}`;
      const what = ctx.apiKey ? `refused the API key` : `asks for an API key`;
      return new ModelListError("auth", `${where(ctx)} ${what} (HTTP ${status}): ${fix}.`, status);
    }
    return new ModelListError(
      "auth",
      `${where(ctx)} refused the request (HTTP ${status}): it asks for credentials Tandem does not send to it; turn its authentication off, or check the base URL.`,
      status,
    );
  }
  if (status === 404) {
    return new ModelListError("http", `${where(ctx)} has no ${path} (HTTP 404): is this the address of the ${ctx.server.name} server?${said}`, status);
  }
  return new ModelListError("http", `${where(ctx)} answered ${path} with HTTP ${status}${said}.`, status);
}

/** `{error: {message}}`, `{error: "…"}` or `{message}`, as servers put it; undefined otherwise. */
function errorMessageOf(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  const error = field(body, "error");
  const message = isRecord(error) ? field(error, "message") : (error ?? field(body, "message"));
  return typeof message === "string" && message.trim() ? sanitize(message) : undefined;
}
