/**
 * One entry per provider handler for the shared wire suite (provider-wire.test.ts): how to build
 * it against the scripted model server, and the few facts in which the providers' wires differ
 * (status codes, prices, stop reasons). A new provider is one entry here; what only it does goes
 * in its own test file.
 */
import { buildApiHandler, type ApiConfiguration } from "../../src/api/index.js";
import { resolveConfiguration } from "../../src/api/config.js";
import { OpenAiResponsesHandler } from "../../src/api/providers/openai-responses.js";
import type { ApiErrorKind } from "../../src/api/errors.js";
import type { ApiHandler, ApiStreamChunk } from "../../src/api/types.js";
import type { AnswerTurn, FaultTurn, ScriptedUsage } from "../support/script.js";
import type { ScriptedModelServer } from "../support/scripted-model-server.js";
import { useMetadataServer } from "../support/gce-metadata-routes.js";

export interface FaultCase {
  readonly turn: FaultTurn;
  readonly kind: ApiErrorKind;
  readonly status?: number;
}

export interface ProviderAdapter {
  readonly name: string;
  readonly handler: (server: ScriptedModelServer, overrides?: Partial<ApiConfiguration>) => ApiHandler;
  /** A model that streams reasoning, and the reasoning as the handler yields it. */
  readonly reasoning: { readonly modelId?: string; readonly turn: AnswerTurn; readonly expected: string };
  /** Tool call ids as this provider spells them. */
  readonly toolCallIds: readonly [string, string];
  /** An answer's usage, what the handler reports, and its cost at the default model's prices. */
  readonly usage: { readonly scripted: ScriptedUsage; readonly reported: Record<string, number>; readonly cost: number };
  /** What an empty answer yields besides usage, when the provider promises it exactly. */
  readonly emptyAnswer?: readonly ApiStreamChunk[];
  /** Scripted stop reasons and the normalised stop reason each becomes. */
  readonly stopReasons: readonly (readonly [string, string])[];
  /** Faults whose outcome depends on the provider (the common ones are in the suite). */
  readonly faults: readonly FaultCase[];
  /** The provider sends each native tool call whole, in one event (Gemini). */
  readonly wholeToolCalls?: boolean;
  /** The status of a refused credential, when not 401. */
  readonly authStatus?: number;
  /** False when the provider's 429 carries no retry-after (Bedrock's). */
  readonly sendsRetryAfter?: boolean;
  /** The images of a recorded request body, as media type and base64 data, in the provider's own shape. */
  readonly imagesIn: (body: Record<string, unknown>) => { mediaType: string; data: string }[];
}

/** Every object in a JSON value that satisfies `pick`, depth first: for finding blocks in a request body. */
export function findAll<T>(value: unknown, pick: (node: Record<string, unknown>) => T | undefined): T[] {
  if (Array.isArray(value)) return value.flatMap((item) => findAll(item, pick));
  if (typeof value !== "object" || value === null) return [];
  const node = value as Record<string, unknown>;
  const found = pick(node);
  return [...(found === undefined ? [] : [found]), ...Object.values(node).flatMap((child) => findAll(child, pick))];
}

/** Anthropic's `{type: "image", source: {type: "base64", media_type, data}}`. */
export const anthropicImages = (body: Record<string, unknown>) =>
  findAll(body, (node) => {
    const source = node.source as Record<string, unknown> | undefined;
    return node.type === "image" && source?.type === "base64" ? { mediaType: String(source.media_type), data: String(source.data) } : undefined;
  });

/** A `data:` URL as OpenAI's two APIs carry images. */
const fromDataUrl = (url: unknown) => {
  const match = typeof url === "string" ? /^data:([^;]+);base64,(.*)$/.exec(url) : null;
  return match ? { mediaType: match[1] ?? "", data: match[2] ?? "" } : undefined;
};

const openAiKey = "sk-openai-test-key";

// Vertex signs with Application Default Credentials: here, a metadata server of the test's own.
await useMetadataServer();

const OPENAI_CHAT: ProviderAdapter = {
  name: "OpenAI chat.completions",
  handler: (server, overrides = {}) => buildApiHandler({ provider: "openai", apiKey: openAiKey, baseUrl: server.openaiBaseUrl, modelId: "gpt-4.1", ...overrides }),
  reasoning: { modelId: "deepseek-flash", turn: { thinking: { text: "Think about the tests." }, text: "Answer." }, expected: "Think about the tests." },
  toolCallIds: ["call_first", "call_second"],
  usage: {
    // The wire says prompt_tokens 4000 of which cached_tokens 3000.
    scripted: { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 3000 },
    reported: { inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 0, cacheReadTokens: 3000 },
    // GPT-4.1: $2 in, $8 out, $0.50 cached input per million.
    cost: (1000 * 2 + 500 * 8 + 3000 * 0.5) / 1e6,
  },
  emptyAnswer: [{ type: "stop", reason: "end_turn" }],
  stopReasons: [
    ["max_tokens", "max_tokens"],
    ["end_turn", "end_turn"],
    ["tool_use", "tool_use"],
  ],
  faults: [
    { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 503 },
    { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded", status: 400 },
    { turn: { kind: "fault", fault: "context_window_exceeded", flavor: "openrouter" }, kind: "context_window_exceeded", status: 400 },
    { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "server_error" },
  ],
  imagesIn: (body) => findAll(body, (node) => (node.type === "image_url" ? fromDataUrl((node.image_url as Record<string, unknown> | undefined)?.url) : undefined)),
};

const ANTHROPIC: ProviderAdapter = {
  name: "Anthropic",
  // Claude Sonnet 5.5, the default model. Deliberately changed from claude-sonnet-4-5, which retires on 2026-11-30.
  handler: (server, overrides = {}) =>
    buildApiHandler({ provider: "anthropic", apiKey: "sk-ant-test-key", baseUrl: server.anthropicBaseUrl, modelId: "claude-sonnet-5-5", ...overrides }),
  reasoning: { turn: { thinking: { text: "Consider the files first.", signature: "sig-abc123" }, text: "Done." }, expected: "Consider the files first." },
  toolCallIds: ["toolu_first", "toolu_second"],
  usage: {
    scripted: { inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 200, cacheReadTokens: 3000 },
    reported: { inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 200, cacheReadTokens: 3000 },
    // Sonnet 5.5: $2 in, $10 out, $2.50 cache write, $0.10 cache read per million.
    cost: (1000 * 2 + 500 * 10 + 200 * 2.5 + 3000 * 0.1) / 1e6,
  },
  stopReasons: [
    ["max_tokens", "max_tokens"],
    ["end_turn", "end_turn"],
    ["stop_sequence", "end_turn"],
    ["refusal", "content_filter"],
  ],
  faults: [
    { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 529 },
    { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded", status: 400 },
    { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "overloaded" },
  ],
  imagesIn: anthropicImages,
};

/** Gemini's `{inlineData: {mimeType, data}}` parts. */
const geminiImages = (body: Record<string, unknown>) =>
  findAll(body, (node) => {
    const inline = node.inlineData as Record<string, unknown> | undefined;
    return typeof inline?.data === "string" ? { mediaType: String(inline.mimeType), data: inline.data } : undefined;
  });

const GEMINI: ProviderAdapter = {
  name: "Google Gemini",
  // Gemini 4 Neon, the default model.
  handler: (server, overrides = {}) => buildApiHandler({ provider: "gemini", apiKey: "gemini-test-key", baseUrl: server.url, modelId: "gemini-4-neon", ...overrides }),
  reasoning: { turn: { thinking: { text: "Read the failing test first." }, text: "Done." }, expected: "Read the failing test first." },
  toolCallIds: ["fc_first", "fc_second"],
  usage: {
    // The wire says promptTokenCount 4000 of which cachedContentTokenCount 3000.
    scripted: { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 3000 },
    reported: { inputTokens: 1000, outputTokens: 500, cacheWriteTokens: 0, cacheReadTokens: 3000 },
    // Gemini 4 Neon: $3 in, $15 out, $0.15 cached input per million.
    cost: (1000 * 3 + 500 * 15 + 3000 * 0.15) / 1e6,
  },
  emptyAnswer: [{ type: "stop", reason: "end_turn" }],
  stopReasons: [
    ["max_tokens", "max_tokens"],
    ["end_turn", "end_turn"],
    ["SAFETY", "content_filter"],
    ["RECITATION", "content_filter"],
    ["PROHIBITED_CONTENT", "content_filter"],
    ["MALFORMED_FUNCTION_CALL", "other"],
    // The per-request output limit, with the SDK's follow-up requests turned off.
    ["CONTINUATION", "max_tokens"],
  ],
  faults: [
    { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 503 },
    { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded", status: 400 },
    // An error object in a `data:` event, which carries its code.
    { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "server_error", status: 500 },
  ],
  imagesIn: geminiImages,
  wholeToolCalls: true,
  // The Gemini API refuses a bad key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID).
  authStatus: 400,
};

export const PROVIDER_ADAPTERS: readonly ProviderAdapter[] = [
  ANTHROPIC,
  OPENAI_CHAT,
  // The presets of the OpenAI-compatible provider: the same wire, their own base URLs and names.
  { ...OPENAI_CHAT, name: "OpenRouter", handler: (server, overrides = {}) => buildApiHandler({ provider: "openrouter", apiKey: "sk-or-test", baseUrl: server.openaiBaseUrl, modelId: "openai/gpt-4.1", ...overrides }) },
  ...(["ollama", "lmstudio"] as const).map((provider) => ({
    ...OPENAI_CHAT,
    name: provider === "ollama" ? "Ollama" : "LM Studio",
    // Named by the server's root (the API under /v1 is theirs to add); a local model costs nothing.
    handler: (server: ScriptedModelServer, overrides: Partial<ApiConfiguration> = {}) => buildApiHandler({ provider, baseUrl: server.url, modelId: "qwen3-coder:30b", ...overrides }),
    usage: { ...OPENAI_CHAT.usage, cost: 0 },
  })),
  {
    name: "OpenAI Responses",
    handler: (server, overrides = {}) =>
      new OpenAiResponsesHandler(resolveConfiguration({ provider: "openai", apiKey: openAiKey, baseUrl: server.openaiBaseUrl, modelId: "gpt-6.2-sol", ...overrides })),
    reasoning: { turn: { thinking: { text: "**Plan**\n\nThink about the tests." }, text: "Answer.", chunkSize: 5 }, expected: "**Plan**\n\nThink about the tests." },
    toolCallIds: ["call_first", "call_second"],
    usage: {
      // The wire says input_tokens 60000 of which cached_tokens 50000.
      scripted: { inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 50_000 },
      reported: { inputTokens: 10_000, outputTokens: 2_000, cacheWriteTokens: 0, cacheReadTokens: 50_000 },
      cost: (10_000 * 2 + 2_000 * 10 + 50_000 * 0.1) / 1e6,
    },
    emptyAnswer: [{ type: "stop", reason: "end_turn" }],
    stopReasons: [
      ["max_tokens", "max_tokens"],
      ["end_turn", "end_turn"],
    ],
    faults: [
      { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 503 },
      // OpenAI reports this one inside the stream (response.failed), so there is no status.
      { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded" },
      { turn: { kind: "fault", fault: "context_window_exceeded", flavor: "openrouter" }, kind: "context_window_exceeded", status: 400 },
      { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "server_error" },
    ],
    imagesIn: (body) => findAll(body, (node) => (node.type === "input_image" ? fromDataUrl(node.image_url) : undefined)),
  },
  // Claude on Vertex: Anthropic's stream on Google's path, signed by the metadata server's token.
  {
    ...ANTHROPIC,
    name: "Google Vertex AI (Claude)",
    handler: (server, overrides = {}) =>
      buildApiHandler({ provider: "vertex", vertexProjectId: "tandem-test", vertexRegion: "us-east5", baseUrl: `${server.url}/v1`, modelId: "claude-sonnet-5-5", ...overrides }),
  },
  // Claude on Bedrock: Anthropic's events in AWS event-stream frames on /model/{id}/invoke-with-response-stream.
  // A Bedrock API key (sent as a bearer token) keeps it hermetic: no AWS credential chain, no
  // environment; test/api/bedrock.test.ts signs with each link of the chain. Bedrock answers a
  // refused credential with 403 (never 401) and a throttled request without retry-after, so the
  // handler reports no retryAfterSeconds and the Task's own backoff applies.
  {
    ...ANTHROPIC,
    name: "AWS Bedrock",
    handler: (server, overrides = {}) =>
      buildApiHandler({
        provider: "bedrock",
        apiKey: "bedrock-api-key-test",
        awsRegion: "us-west-2",
        baseUrl: server.url,
        modelId: "global.anthropic.claude-sonnet-5-5",
        ...overrides,
      }),
    toolCallIds: ["toolu_bdrk_first", "toolu_bdrk_second"],
    emptyAnswer: [{ type: "stop", reason: "end_turn" }],
    faults: [
      { turn: { kind: "fault", fault: "overloaded" }, kind: "overloaded", status: 503 },
      { turn: { kind: "fault", fault: "context_window_exceeded" }, kind: "context_window_exceeded", status: 400 },
      // A serviceUnavailableException frame after some text.
      { turn: { kind: "fault", fault: "error_mid_stream", text: "partial answer" }, kind: "overloaded" },
    ],
    // Bedrock refuses credentials with 403 (UnrecognizedClientException) and throttles with no retry-after.
    authStatus: 403,
    sendsRetryAfter: false,
  },
  // Gemini: `data:` chunks of GenerateContentResponse on /v1beta/models/{model}:streamGenerateContent.
  // Gemini sends each function call whole, not in fragments, and the Gemini API answers a refused
  // key with a 400 (reason API_KEY_INVALID), not a 401; test/api/gemini.test.ts has the rest.
  GEMINI,
  // The same handler in Vertex mode: the same chunks on Vertex's path, signed by the metadata
  // server's token; Vertex refuses a token with a 401.
  {
    ...GEMINI,
    name: "Gemini on Vertex AI",
    handler: (server, overrides = {}) =>
      buildApiHandler({ provider: "vertex", vertexProjectId: "tandem-test", vertexRegion: "us-east5", baseUrl: server.url, modelId: "gemini-4-neon", ...overrides }),
    authStatus: undefined,
  },
];

/** One entry by name, for the provider's own test file. */
export function providerAdapter(name: string): ProviderAdapter {
  const found = PROVIDER_ADAPTERS.find((a) => a.name === name);
  if (!found) throw new Error(`no provider adapter named "${name}"`);
  return found;
}
