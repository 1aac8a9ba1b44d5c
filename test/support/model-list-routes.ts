/**
 * The model-list routes of the scripted model server, in the shapes the real servers send:
 * - GET /v1/models: OpenRouter's list ({data: [...]} with context_length, pricing per token,
 *   architecture, top_provider, supported_parameters), which is also LM Studio's
 *   OpenAI-compatible list ({object: "list", data: [{id, object: "model"}]}; extra fields ignored);
 * - GET /api/v0/models: LM Studio's own list (type llm/vlm/embeddings, max_context_length, capabilities);
 * - GET /api/tags and POST /api/show {model}: Ollama's list and per-model details
 *   (model_info["<arch>.context_length"], capabilities, parameters).
 * They answer from the models a test sets (`setModels`), or with a fault set per route (`fail`):
 * an HTTP status, a body that is not a list, a huge body, or no answer at all. Until a test sets
 * either, the routes do not exist (404, as before), so a server that was not told of models
 * has none to list.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson, sleep } from "./wire-stream.js";

export type ModelListRoute = "/v1/models" | "/api/v0/models" | "/api/tags" | "/api/show";

export const MODEL_LIST_ROUTES: readonly ModelListRoute[] = ["/v1/models", "/api/v0/models", "/api/tags", "/api/show"];

/** One model, rendered into each server's own shape. */
export interface ScriptedListModel {
  id: string;
  /** OpenRouter's display name. */
  name?: string;
  contextLength?: number;
  /** OpenRouter's top_provider.max_completion_tokens. */
  maxCompletionTokens?: number;
  /** USD per token as decimal strings, as OpenRouter sends them ("0.000003"). */
  pricing?: { prompt?: string; completion?: string; input_cache_read?: string; input_cache_write?: string };
  /** Takes images: OpenRouter's input_modalities, LM Studio's type "vlm", Ollama's "vision". */
  vision?: boolean;
  /** OpenRouter's "reasoning" parameter, Ollama's "thinking" capability. */
  thinking?: boolean;
  /** OpenRouter's "tools" parameter, LM Studio's "tool_use", Ollama's "tools". */
  tools?: boolean;
  /** OpenRouter's "temperature" parameter (default true). */
  temperature?: boolean;
  /** Only embeds: LM Studio's type "embeddings", Ollama's capabilities ["embedding"]. */
  embedding?: boolean;
  /** Ollama's model_info["general.architecture"] (default "llama"). */
  architecture?: string;
  /** Ollama: a Modelfile's num_ctx, in /api/show's parameters. */
  numCtx?: number;
  /** Ollama: /api/show for this model answers with this fault. */
  showFault?: ModelListFault;
  /** Merged over the rendered entry of a route, to send what a well-behaved server would not. */
  raw?: Partial<Record<ModelListRoute, Record<string, unknown>>>;
}

export type ModelListFault =
  /** This status with this JSON body (default: an {error: {message}} body). */
  | { status: number; body?: unknown }
  /** 200 with this text as application/json. */
  | { garbage: string }
  /** 200 with this JSON. */
  | { json: unknown }
  /** 200, streaming a list of this many bytes without a content-length (it stops when the client goes). */
  | { huge: number }
  /** 200 with a content-length of this many bytes, and a body that never comes. */
  | { declaredBytes: number }
  /** The request is read and never answered. */
  | "hang";

export interface ModelListRequest {
  method: string;
  path: ModelListRoute;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** POST /api/show's parsed JSON body. */
  body?: unknown;
}

export class ModelListRoutes {
  readonly requests: ModelListRequest[] = [];
  /** Undefined until a test sets a list: the routes are off. */
  private models: ScriptedListModel[] | undefined;
  private readonly faults = new Map<ModelListRoute, ModelListFault>();
  private readonly delays = new Map<ModelListRoute, number>();

  setModels(models: readonly ScriptedListModel[]): void {
    this.models = [...models];
  }

  /** Makes a route answer with a fault from now on; undefined answers normally again. */
  fail(route: ModelListRoute, fault: ModelListFault | undefined): void {
    if (fault === undefined) this.faults.delete(route);
    else this.faults.set(route, fault);
  }

  /** Makes a route answer (or fail) only after this many milliseconds; 0 at once again. */
  delay(route: ModelListRoute, ms: number): void {
    if (ms > 0) this.delays.set(route, ms);
    else this.delays.delete(route);
  }

  /** The requests to one route. */
  requestsTo(path: ModelListRoute): ModelListRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** GET of the lists, POST of /api/show, once a test set models or a fault; the wires' POST /v1/... are not these. */
  handles(method: string | undefined, path: string): boolean {
    if (this.models === undefined && this.faults.size === 0) return false;
    return path === "/api/show" ? method === "POST" : method === "GET" && (MODEL_LIST_ROUTES as readonly string[]).includes(path);
  }

  async answer(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const route = path as ModelListRoute;
    const models = this.models ?? [];
    const body = route === "/api/show" ? await readBody(req) : undefined;
    this.requests.push({ method: req.method ?? "", path: route, headers: lowerCaseHeaders(req), ...(body === undefined ? {} : { body }) });
    await sleep(this.delays.get(route) ?? 0);
    const fault = this.faults.get(route);
    if (fault) return sendFault(res, fault);
    switch (route) {
      case "/v1/models":
        return sendJson(res, 200, { object: "list", data: models.map((m) => ({ ...openRouterEntry(m), ...m.raw?.[route] })) });
      case "/api/v0/models":
        return sendJson(res, 200, { object: "list", data: models.map((m) => ({ ...lmStudioEntry(m), ...m.raw?.[route] })) });
      case "/api/tags":
        return sendJson(res, 200, { models: models.map((m) => ({ ...ollamaTag(m), ...m.raw?.[route] })) });
      case "/api/show":
        return this.show(res, body);
    }
  }

  private show(res: ServerResponse, body: unknown): void | Promise<void> {
    const name = typeof body === "object" && body !== null ? (body as Record<string, unknown>).model : undefined;
    const model = this.models?.find((m) => m.id === name);
    // Ollama's own answer for a model it does not have.
    if (!model) return sendJson(res, 404, { error: `model '${String(name)}' not found` });
    if (model.showFault) return sendFault(res, model.showFault);
    sendJson(res, 200, { ...ollamaShow(model), ...model.raw?.["/api/show"] });
  }
}

const CREATED = 1_760_000_000;
const MODIFIED_AT = "2026-11-01T10:00:00.000000000Z";

function openRouterEntry(m: ScriptedListModel): Record<string, unknown> {
  const params = ["max_tokens", "top_p", "stop"];
  if (m.temperature ?? true) params.push("temperature");
  if (m.thinking) params.push("reasoning", "include_reasoning");
  if (m.tools) params.push("tools", "tool_choice");
  const inputs = m.vision ? ["text", "image"] : ["text"];
  return {
    id: m.id,
    canonical_slug: m.id,
    object: "model",
    created: CREATED,
    owned_by: "organization_owner",
    name: m.name ?? m.id,
    description: `${m.id}, as the scripted model server lists it.`,
    context_length: m.contextLength ?? null,
    architecture: { modality: `${inputs.join("+")}->text`, input_modalities: inputs, output_modalities: ["text"], tokenizer: "Other", instruct_type: null },
    pricing: { prompt: "0", completion: "0", request: "0", image: "0", web_search: "0", internal_reasoning: "0", ...m.pricing },
    top_provider: { context_length: m.contextLength ?? null, max_completion_tokens: m.maxCompletionTokens ?? null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: params,
    default_parameters: null,
  };
}

function lmStudioEntry(m: ScriptedListModel): Record<string, unknown> {
  return {
    id: m.id,
    object: "model",
    type: m.embedding ? "embeddings" : m.vision ? "vlm" : "llm",
    publisher: "lmstudio-community",
    arch: m.architecture ?? "llama",
    compatibility_type: "gguf",
    quantization: "Q4_K_M",
    state: "loaded",
    ...(m.contextLength === undefined ? {} : { max_context_length: m.contextLength }),
    capabilities: m.tools ? ["tool_use"] : [],
  };
}

function ollamaDetails(m: ScriptedListModel): Record<string, unknown> {
  const family = m.architecture ?? "llama";
  return { parent_model: "", format: "gguf", family, families: [family], parameter_size: "8.0B", quantization_level: "Q4_K_M" };
}

function ollamaTag(m: ScriptedListModel): Record<string, unknown> {
  return { name: m.id, model: m.id, modified_at: MODIFIED_AT, size: 4_920_000_000, digest: "0".repeat(64), details: ollamaDetails(m) };
}

function ollamaShow(m: ScriptedListModel): Record<string, unknown> {
  const arch = m.architecture ?? "llama";
  const capabilities = m.embedding ? ["embedding"] : ["completion"];
  if (m.vision) capabilities.push("vision");
  if (m.tools) capabilities.push("tools");
  if (m.thinking) capabilities.push("thinking");
  return {
    license: "scripted",
    modelfile: `# Modelfile generated by the scripted model server\nFROM ${m.id}\n`,
    parameters: [`stop "<|eot_id|>"`, ...(m.numCtx === undefined ? [] : [`num_ctx ${m.numCtx}`])].join("\n"),
    template: "{{ .Prompt }}",
    details: ollamaDetails(m),
    model_info: {
      "general.architecture": arch,
      "general.parameter_count": 8_030_261_248,
      ...(m.contextLength === undefined ? {} : { [`${arch}.context_length`]: m.contextLength }),
      [`${arch}.embedding_length`]: 4096,
    },
    capabilities,
    modified_at: MODIFIED_AT,
  };
}

function sendFault(res: ServerResponse, fault: ModelListFault): void | Promise<void> {
  if (fault === "hang") return;
  if ("status" in fault) return sendJson(res, fault.status, fault.body ?? { error: { message: `scripted model server: HTTP ${fault.status}` } });
  if ("json" in fault) return sendJson(res, 200, fault.json);
  if ("garbage" in fault) {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(fault.garbage)) });
    res.end(fault.garbage);
    return;
  }
  if ("declaredBytes" in fault) {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(fault.declaredBytes) });
    res.flushHeaders();
    return;
  }
  return streamHugeList(res, fault.huge);
}

/** A well-formed list of `bytes` bytes, written as the client reads it (never buffered whole). */
async function streamHugeList(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { "content-type": "application/json" });
  let written = 0;
  const write = (text: string): Promise<void> | undefined => {
    written += Buffer.byteLength(text);
    if (res.write(text)) return undefined;
    return new Promise((resolve) => {
      const done = (): void => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done).on("close", done);
    });
  };
  await write('{"object":"list","data":[');
  for (let i = 0; written < bytes && !res.destroyed && res.writable; i++) {
    const batch = Array.from({ length: 100 }, (_, j) => `{"id":"huge-${i * 100 + j}","object":"model","context_length":4096}`).join(",");
    await write(`${i === 0 ? "" : ","}${batch}`);
  }
  if (!res.destroyed && res.writable) res.end("]}");
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}
