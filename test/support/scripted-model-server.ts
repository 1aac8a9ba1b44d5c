/**
 * A stand-in for a real model provider on 127.0.0.1: it answers the Anthropic Messages, OpenAI
 * chat.completions and OpenAI Responses streaming endpoints by replaying a script of turns, one
 * per request whatever the endpoint, and records every request so tests can check what the
 * agent sent.
 *
 * Control routes (not counted as model requests): GET /__requests returns the recorded
 * requests; POST /__script appends turns (a JSON array, or { "turns": [...] }); POST /__models
 * sets what the model-list routes answer (a JSON array of models, see below); DELETE /__script
 * drops the turns not served yet.
 *
 * Model lists (not counted as model requests; test/support/model-list-routes.ts, set through
 * `modelLists`): GET /v1/models (OpenRouter's list, which LM Studio's OpenAI-compatible one is a
 * subset of), GET /api/v0/models (LM Studio's own), GET /api/tags and POST /api/show (Ollama's).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicWire } from "./anthropic-wire.js";
import { bedrockWire } from "./bedrock-wire.js";
import { geminiWire, vertexGeminiWire } from "./gemini-wire.js";
import { openaiResponsesWire } from "./openai-responses-wire.js";
import { openaiWire } from "./openai-wire.js";
import { vertexAnthropicWire } from "./vertex-wire.js";
import { answerMetadata } from "./gce-metadata-routes.js";
import { ModelListRoutes, type ScriptedListModel } from "./model-list-routes.js";
import { parseScript } from "./parse-script.js";
import type { RecordedRequest, ScriptTurn } from "./script.js";
import type { Wire } from "./wire.js";
import { sendJson } from "./wire-stream.js";

export interface ScriptedModelServer {
  readonly url: string;
  /** What to pass to `new Anthropic({ baseURL })`: the same as `url`. */
  readonly anthropicBaseUrl: string;
  /** What to pass to `new OpenAI({ baseURL })`: `url` + "/v1". */
  readonly openaiBaseUrl: string;
  readonly requests: readonly RecordedRequest[];
  /** The models the list routes answer with, their faults and the requests they received. */
  readonly modelLists: ModelListRoutes;
  enqueue(...turns: ScriptTurn[]): void;
  /** Resolves once at least n requests have been received. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Closes the server and every socket, including stalled streams. */
  close(): Promise<void>;
}

export interface ScriptedModelServerOptions {
  turns?: ScriptTurn[];
  /**
   * In-process tests only: answers a request from what it carries (a turn), before the script
   * is consulted; undefined falls back to the next scripted turn. For long tasks whose turns
   * depend on the request (a summary request, usage that follows the prompt's size).
   */
  respond?: (request: RecordedRequest) => ScriptTurn | undefined;
  /** Defaults to 0: any free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

const WIRES: readonly Wire[] = [anthropicWire, openaiWire, openaiResponsesWire, vertexAnthropicWire, bedrockWire, geminiWire, vertexGeminiWire];

interface Waiter {
  count: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`request body is not valid JSON (${(error as Error).message}): ${text.slice(0, 200)}`);
  }
}

function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class ScriptServer {
  readonly requests: RecordedRequest[] = [];
  readonly modelLists = new ModelListRoutes();
  private readonly turns: ScriptTurn[] = [];
  private nextTurn = 0;
  private waiters: Waiter[] = [];

  constructor(private readonly respond?: ScriptedModelServerOptions["respond"]) {}

  enqueue(turns: readonly ScriptTurn[]): void {
    this.turns.push(...turns);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://scripted.invalid").pathname;
    const wire = WIRES.find((w) => w.matches(path));
    if (req.method === "POST" && wire) return this.answer(wire, req, res, path);
    if (answerMetadata(req, res, path)) return;
    if (this.modelLists.handles(req.method, path)) return this.modelLists.answer(req, res, path);
    if (req.method === "GET" && path === "/__requests") return sendJson(res, 200, this.requests);
    if (req.method === "POST" && path === "/__script") return this.appendScript(req, res);
    if (req.method === "POST" && path === "/__models") return this.setListedModels(req, res);
    if (req.method === "DELETE" && path === "/__script") {
      // Drops the turns not served yet, e.g. after a client was killed mid-task.
      const dropped = this.turns.length - this.nextTurn;
      this.nextTurn = this.turns.length;
      return sendJson(res, 200, { dropped });
    }
    sendJson(res, 404, { error: { message: `scripted model server: no route for ${req.method} ${path}` } });
  }

  /** The models the list routes answer with, for a test in another process (the e2e suite's). */
  private async setListedModels(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const models = await readJson(req).catch((error: unknown) => error as Error);
    const valid = Array.isArray(models) && models.every((m) => isRecord(m) && typeof m.id === "string");
    if (!valid) return sendJson(res, 400, { error: { message: "scripted model server: POST /__models takes a JSON array of { id, … } models" } });
    this.modelLists.setModels(models as ScriptedListModel[]);
    sendJson(res, 200, { models: models.length });
  }

  private async appendScript(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const turns = parseScript(await readJson(req), "POST /__script");
      this.enqueue(turns);
      sendJson(res, 200, { appended: turns.length, pending: this.turns.length - this.nextTurn });
    } catch (error) {
      sendJson(res, 400, { error: { message: `scripted model server: ${(error as Error).message}` } });
    }
  }

  private async answer(wire: Wire, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      return wire.sendError(res, 400, `scripted model server: ${(error as Error).message}`);
    }
    if (!isRecord(body)) return wire.sendError(res, 400, "scripted model server: request body must be a JSON object");
    // Only streaming is scripted; a non-streaming request is a bug in the caller, not a turn.
    // Bedrock and Gemini stream by their path (invoke-with-response-stream, :streamGenerateContent): their bodies have no `stream`.
    const streaming = body.stream === true || wire.protocol === "bedrock" || wire.protocol === "gemini";
    const request: RecordedRequest = { protocol: wire.protocol, path, headers: lowerCaseHeaders(req), body, turnIndex: -1 };
    const answered = streaming ? this.respond?.(request) : undefined;
    const turnIndex = streaming && !answered && this.nextTurn < this.turns.length ? this.nextTurn++ : -1;
    request.turnIndex = turnIndex;
    const requestNumber = this.record(request);
    if (!streaming) return wire.sendError(res, 400, "scripted model server: only streaming requests (stream: true) are scripted");
    const turn = answered ?? this.turns[turnIndex];
    if (turn === undefined) {
      return wire.sendError(res, 500, `scripted model server: script exhausted (request ${requestNumber})`);
    }
    await wire.respond(res, turn, { body, requestNumber });
  }

  /** Stores the request, wakes whoever waits for it, and returns its 1-based number. */
  private record(request: RecordedRequest): number {
    this.requests.push(request);
    const ready = this.waiters.filter((w) => this.requests.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.requests.length < w.count);
    for (const waiter of ready) waiter.resolve();
    return this.requests.length;
  }

  waitForRequests(count: number, timeoutMs: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`scripted model server: waited ${timeoutMs} ms for ${count} requests, got ${this.requests.length}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  rejectWaiters(reason: string): void {
    for (const waiter of this.waiters) waiter.reject(new Error(reason));
    this.waiters = [];
  }
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const script = new ScriptServer(options.respond);
  script.enqueue(options.turns ?? []);
  const server = createServer((req, res) => {
    script.handle(req, res).catch((error: unknown) => {
      // A bug in the server itself: say so loudly, and fail the request rather than hang it.
      console.error("scripted model server: failed to answer", req.method, req.url, error);
      if (!res.headersSent) sendJson(res, 500, { error: { message: `scripted model server: ${String(error)}` } });
      else res.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = formatUrl(host, (server.address() as AddressInfo).port);
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    modelLists: script.modelLists,
    get requests(): readonly RecordedRequest[] {
      return script.requests;
    },
    enqueue: (...turns) => script.enqueue(turns),
    waitForRequests: (n, timeoutMs = 5_000) => script.waitForRequests(n, timeoutMs),
    close: () =>
      new Promise<void>((resolve, reject) => {
        script.rejectWaiters("scripted model server: closed while waiting for requests");
        server.close((error) => (error ? reject(error) : resolve()));
        // Stalled streams and keep-alive sockets would hold close() open forever.
        server.closeAllConnections();
      }),
  };
}
