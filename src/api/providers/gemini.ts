/**
 * Google Gemini through @google/genai: the Gemini API with an API key, or Vertex AI (the same
 * wire, signed with Google credentials) when built with the `vertex` option. Streamed as server-
 * sent GenerateContentResponse chunks; the one with a finishReason proves the answer whole.
 *
 * The SDK retries nothing here (no retryOptions, and no automatic continuation, which would send
 * further requests on its own): retrying is the Task's business.
 */
import { randomBytes } from "node:crypto";
import { ApiError as GoogleApiError, GoogleGenAI, type GenerateContentConfig, type GenerateContentResponse, type Part } from "@google/genai";
import { GoogleAuth, type GoogleAuthOptions } from "google-auth-library";
import { PROVIDERS } from "../../shared/providers.js";
import { ERROR_PHRASES, isContextOverflow, rootCause } from "../classify-error.js";
import type { ResolvedConfiguration } from "../config.js";
import { calculateCost, type NormalisedUsage } from "../cost.js";
import { ApiError, isApiError, type ApiErrorKind } from "../errors.js";
import { catalogueIdOf, pricesFor } from "../model-info.js";
import type { ApiMessage, ApiStreamChunk, ModelInfo, StopReason, ToolSpec } from "../types.js";
import { GENERATED_CALL_ID_PREFIX, toGeminiContents, toGeminiSystem, toGeminiThinking, toGeminiTools } from "./gemini-format.js";
import { StreamingApiHandler, type ProviderRequest } from "./streaming-handler.js";

const GEMINI_API_BASE_URL = "https://generativelanguage.googleapis.com";
const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const VERTEX_PROVIDER_NAME = "Google Vertex AI";

/** Vertex AI instead of the Gemini API: where the requests go and how they are signed. */
export interface GeminiVertexOptions {
  /** Default: the configuration's `vertexProjectId`; unset there too, the credentials' project. */
  project?: string;
  /** Default: the configuration's `vertexRegion`, else "global". */
  location?: string;
  /** The credentials (default: Application Default Credentials with the cloud-platform scope). */
  googleAuthOptions?: GoogleAuthOptions;
  /** Default: the configuration's `baseUrl`, else the location's Vertex AI endpoint. */
  baseUrl?: string;
}

export interface GeminiHandlerOptions {
  vertex?: GeminiVertexOptions;
  /** Who answers, in messages (default "Google Gemini", or "Google Vertex AI" in Vertex mode). */
  name?: string;
}

export class GeminiHandler extends StreamingApiHandler<GenerateContentResponse> {
  private client: Promise<GoogleGenAI> | undefined;

  constructor(
    config: ResolvedConfiguration,
    private readonly options: GeminiHandlerOptions = {},
  ) {
    super(config, options.name ?? (options.vertex ? VERTEX_PROVIDER_NAME : PROVIDERS.gemini.name));
  }

  protected prepare(
    systemPrompt: string,
    messages: readonly ApiMessage[],
    tools: readonly ToolSpec[] | undefined,
  ): ProviderRequest<GenerateContentResponse> {
    if (!this.options.vertex && !this.config.apiKey) throw new ApiError("auth", `${this.providerName}: no API key is set.`);
    if (messages.length === 0) throw new ApiError("bad_request", `${this.providerName}: there is no message to send.`);
    const { id, info } = this.config.model;
    const contents = toGeminiContents(messages, { provider: this.providerName, signaturesRequired: signaturesRequired(id) });
    if (contents.length === 0) throw new ApiError("bad_request", `${this.providerName}: there is no message to send.`);
    const config = this.buildConfig(systemPrompt, tools);
    const reader = new GeminiEventReader(info, this.providerName);
    return {
      open: async (signal) => {
        const ai = await this.clientOnce();
        return this.withRequestTimeout(signal, (abortSignal) =>
          ai.models.generateContentStream({ model: id, contents, config: { ...config, abortSignal } }),
        );
      },
      isEndMarker: isFinal,
      read: (chunk) => reader.read(chunk),
    };
  }

  protected override classify(error: unknown, aborted: boolean): ApiError {
    if (isApiError(error) || aborted) return super.classify(error, aborted);
    if (error instanceof GoogleApiError) return fromGoogleError(error, this.providerName);
    if (error instanceof TypeError && error.message === "fetch failed") {
      // Raised before any response arrived: refused, DNS, TLS, reset while sending.
      return new ApiError("connection_lost", `${this.providerName}: could not connect (${rootCause(error)})`, { cause: error });
    }
    if (error instanceof Error && error.message === "Incomplete JSON segment at the end") {
      return new ApiError("truncated", `${this.providerName}: the answer ended before it was complete (mid-event)`, { cause: error });
    }
    return super.classify(error, aborted);
  }

  private buildConfig(systemPrompt: string, tools: readonly ToolSpec[] | undefined): GenerateContentConfig {
    const { id, info } = this.config.model;
    const systemInstruction = toGeminiSystem(systemPrompt);
    const thinkingConfig = toGeminiThinking(info, this.config.thinkingBudgetTokens);
    return {
      automaticContinuation: false,
      ...(systemInstruction ? { systemInstruction } : {}),
      ...(tools && tools.length > 0 ? { tools: toGeminiTools(tools) } : {}),
      ...(thinkingConfig ? { thinkingConfig } : {}),
      // The catalogue's limit; for a model it does not know, the server's own (a low cap can end
      // an answer while the model is still thinking).
      ...(catalogueIdOf(this.config.provider, id) !== undefined ? { maxOutputTokens: info.maxOutputTokens } : {}),
      // Steady answers only where the model takes it: Gemini 3 and later are meant to run at 1.0.
      ...(info.supportsTemperature ? { temperature: 0 } : {}),
    };
  }

  /** One client per handler, made at the first request (Vertex may first look up the project). */
  private clientOnce(): Promise<GoogleGenAI> {
    this.client ??= this.createClient().catch((error: unknown) => {
      this.client = undefined;
      throw error;
    });
    return this.client;
  }

  private async createClient(): Promise<GoogleGenAI> {
    // No retryOptions: the SDK then makes exactly one attempt. Explicit values throughout keep it
    // from reading GOOGLE_* and GEMINI_* variables: only Tandem's settings decide.
    const vertex = this.options.vertex;
    if (!vertex) {
      return new GoogleGenAI({ vertexai: false, apiKey: this.config.apiKey, httpOptions: { baseUrl: this.config.baseUrl ?? GEMINI_API_BASE_URL } });
    }
    const location = vertex.location ?? this.config.vertexRegion ?? "global";
    const credentials = { ...vertex.googleAuthOptions, scopes: vertex.googleAuthOptions?.scopes ?? CLOUD_PLATFORM_SCOPE };
    const project = vertex.project ?? this.config.vertexProjectId ?? (await this.projectOfCredentials(credentials));
    return new GoogleGenAI({
      vertexai: true,
      project,
      location,
      // A known project spares the library its own search for one (which may run gcloud).
      googleAuthOptions: { ...credentials, projectId: credentials.projectId ?? project },
      httpOptions: { baseUrl: vertex.baseUrl ?? this.config.baseUrl ?? vertexEndpoint(location) },
    });
  }

  private async projectOfCredentials(options: GoogleAuthOptions): Promise<string> {
    try {
      return await new GoogleAuth(options).getProjectId();
    } catch (error) {
      throw new ApiError(
        "auth",
        `${this.providerName}: no Google Cloud project is set and the credentials name none: set the project in Tandem's settings (${(error as Error).message.split("\n")[0]}).`,
        { cause: error },
      );
    }
  }

  /**
   * The setting bounds the wait for the response to start. The SDK's own timeout would also cut
   * a long answer off while it streams, so it is not used.
   */
  private async withRequestTimeout<T>(signal: AbortSignal, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const timeoutMs = this.config.requestTimeoutMs;
    if (!timeoutMs) return start(signal);
    const attempt = new AbortController();
    if (signal.aborted) attempt.abort();
    else signal.addEventListener("abort", () => attempt.abort(), { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, timeoutMs);
    try {
      return await start(attempt.signal);
    } catch (error) {
      if (timedOut && !signal.aborted) {
        throw new ApiError("stalled", `${this.providerName}: no response arrived in time (request timeout after ${timeoutMs} ms)`, { cause: error });
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Gemini 3 and later refuse a function call in the history without its thought signature. */
function signaturesRequired(modelId: string): boolean {
  const major = /(?:^|\/)gemini-(\d+)/.exec(modelId)?.[1];
  return major !== undefined && Number(major) >= 3;
}

/** Where Vertex AI serves a location, as the SDK would choose it (it would read GOOGLE_VERTEX_BASE_URL too). */
function vertexEndpoint(location: string): string {
  if (location === "global") return "https://aiplatform.googleapis.com/";
  if (location === "us" || location === "eu") return `https://aiplatform.${location}.rep.googleapis.com/`;
  return `https://${location}-aiplatform.googleapis.com/`;
}

/** A finish reason, or a prompt refused outright (no candidate at all). */
function isFinal(chunk: GenerateContentResponse): boolean {
  return chunk.candidates?.[0]?.finishReason !== undefined || chunk.promptFeedback?.blockReason !== undefined;
}

const CONTENT_FILTER_REASONS: ReadonlySet<string> = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
]);

function geminiStopReason(reason: string, madeCalls: boolean): StopReason {
  // Gemini ends an answer with function calls with STOP too.
  if (reason === "STOP") return madeCalls ? "tool_use" : "end_turn";
  // CONTINUATION: the per-request output limit came first; the SDK's follow-up requests are off.
  if (reason === "MAX_TOKENS" || reason === "CONTINUATION") return "max_tokens";
  return CONTENT_FILTER_REASONS.has(reason) ? "content_filter" : "other";
}

/**
 * Turns response chunks into our chunks. Gemini sends each function call whole, in one part;
 * usage comes as running totals in every chunk, so it is reported once, the last totals, at the end.
 */
class GeminiEventReader {
  private calls = 0;
  private finished = false;
  private latestUsage: GenerateContentResponse["usageMetadata"];
  private readonly idPrefix = `${GENERATED_CALL_ID_PREFIX}${randomBytes(6).toString("hex")}_`;

  constructor(
    private readonly info: ModelInfo,
    private readonly provider: string,
  ) {}

  *read(chunk: GenerateContentResponse): Generator<ApiStreamChunk> {
    if (this.finished) return;
    this.latestUsage = chunk.usageMetadata ?? this.latestUsage;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) yield* this.part(part);
    const blocked = chunk.promptFeedback?.blockReason;
    const reason = candidate?.finishReason ?? (blocked !== undefined ? "PROHIBITED_CONTENT" : undefined);
    if (reason === undefined) return;
    this.finished = true;
    const usage = usageOf(this.latestUsage);
    if (usage) yield { type: "usage", ...usage, totalCost: calculateCost(pricesFor(this.info, usage), usage) };
    yield { type: "stop", reason: geminiStopReason(reason, this.calls > 0) };
  }

  private *part(part: Part): Generator<ApiStreamChunk> {
    if (part.thought === true) {
      if (part.text) yield { type: "reasoning", reasoning: part.text };
    } else if (part.text) {
      yield { type: "text", text: part.text };
    }
    // The opaque signature of the thinking, on a thought, the first call or the last text part.
    if (part.thoughtSignature) yield { type: "reasoning", reasoning: "", signature: part.thoughtSignature };
    const call = part.functionCall;
    if (call) {
      if (!call.name) throw new ApiError("unknown", `${this.provider}: a function call arrived without a name.`);
      const index = this.calls++;
      yield { type: "tool_calls", index, id: call.id || `${this.idPrefix}${index}`, name: call.name, argumentsDelta: JSON.stringify(call.args ?? {}) };
    }
  }
}

/** promptTokenCount includes the cached tokens: taken out, so every token is priced once. */
function usageOf(usage: GenerateContentResponse["usageMetadata"]): NormalisedUsage | undefined {
  if (!usage) return undefined;
  const prompt = usage.promptTokenCount ?? 0;
  const cached = Math.min(prompt, usage.cachedContentTokenCount ?? 0);
  return {
    inputTokens: prompt - cached,
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
    cacheWriteTokens: 0,
    cacheReadTokens: cached,
  };
}

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Record<string, unknown>[];
}


/** Google's reasons for a refused key, which it answers with a 400 rather than a 401. */
const AUTH_REASONS: ReadonlySet<string> = new Set(["API_KEY_INVALID", "API_KEY_EXPIRED", "API_KEY_SERVICE_BLOCKED", "ACCESS_TOKEN_EXPIRED"]);

/** Google's wording: "The input token count (N) exceeds the maximum number of tokens allowed (M)." */
const GEMINI_OVERFLOW = /input token count.*exceeds the maximum number of tokens allowed/i;

/**
 * The SDK's ApiError keeps the status and, as its message, the JSON body (after "got status: …. "
 * for an error sent inside the stream); the body's details carry the retry delay, the reason and
 * sometimes a request id.
 */
function fromGoogleError(error: GoogleApiError, who: string): ApiError {
  const body = parseBody(error.message);
  const status = error.status ?? body?.code;
  const said = body?.message ?? error.message;
  const detail = (type: string) => body?.details?.find((d) => typeof d["@type"] === "string" && d["@type"].endsWith(`/google.rpc.${type}`));
  const reason = detail("ErrorInfo")?.["reason"];
  const kind = googleKind(status, body?.status, said, typeof reason === "string" ? reason : undefined);
  const requestId = detail("RequestInfo")?.["requestId"];
  const retryAfter = kind === "rate_limited" || kind === "overloaded" ? seconds(detail("RetryInfo")?.["retryDelay"]) : undefined;
  return new ApiError(kind, `${who}: ${ERROR_PHRASES[kind]} (HTTP ${status})${said ? `: ${said}` : ""}`, {
    status,
    retryAfterSeconds: retryAfter,
    requestId: typeof requestId === "string" ? requestId : undefined,
    cause: error,
  });
}

function googleKind(status: number, googleStatus: string | undefined, message: string, reason: string | undefined): ApiErrorKind {
  if (status === 429 || googleStatus === "RESOURCE_EXHAUSTED") return "rate_limited";
  if ((status === 400 || googleStatus === "INVALID_ARGUMENT") && (GEMINI_OVERFLOW.test(message) || isContextOverflow({ message }))) {
    return "context_window_exceeded";
  }
  if ((reason && AUTH_REASONS.has(reason)) || status === 401 || status === 403) return "auth";
  if (googleStatus === "UNAUTHENTICATED" || googleStatus === "PERMISSION_DENIED") return "auth";
  if (status === 503 || googleStatus === "UNAVAILABLE") return "overloaded";
  if (status >= 500) return "server_error";
  if (status >= 400) return "bad_request";
  return "unknown";
}

function parseBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: unknown };
    return typeof parsed.error === "object" && parsed.error !== null ? (parsed.error as GoogleErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/** A protobuf Duration in JSON: "7s", "0.5s". */
function seconds(value: unknown): number | undefined {
  const match = typeof value === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(value.trim()) : null;
  return match ? Number(match[1]) : undefined;
}

