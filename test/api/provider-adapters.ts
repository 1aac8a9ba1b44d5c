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
}

const openAiKey = "sk-openai-test-key";

export const PROVIDER_ADAPTERS: readonly ProviderAdapter[] = [
  {
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
  },
  {
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
  },
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
  },
];

/** One entry by name, for the provider's own test file. */
export function providerAdapter(name: string): ProviderAdapter {
  const found = PROVIDER_ADAPTERS.find((a) => a.name === name);
  if (!found) throw new Error(`no provider adapter named "${name}"`);
  return found;
}
