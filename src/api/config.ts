/**
 * The settings a handler is built from, and their validation: a wrong setting fails when the
 * handler is built, with a message that names it, not later as an obscure HTTP 400.
 */
import { fieldHint, isProviderId, providerChoices, PROVIDERS } from "../shared/providers.js";
import { DEFAULT_MODEL_ID, resolveModel, retirementOf, type ProviderId } from "./model-info.js";
import type { ModelInfo } from "./types.js";
import { DEFAULT_AGENT_SETTINGS } from "../shared/settings.js";

export interface ApiConfiguration {
  provider: ProviderId;
  /** Required by Anthropic; optional for local OpenAI-compatible servers. */
  apiKey?: string;
  /** e.g. "http://localhost:11434/v1" for Ollama; the provider's own endpoint when absent. */
  baseUrl?: string;
  modelId?: string;
  contextWindowOverride?: number;
  /**
   * Asks for thinking. On models with a manual budget (Claude 4.5 and earlier) it is the budget
   * in tokens, at least 1024 and below the output limit. On adaptive models it only asks for
   * thinking, the model decides how much; Claude 5 models think without it too.
   */
  thinkingBudgetTokens?: number;
  /** Longest silence before a stream counts as stalled (default: the stall timeout setting's default). */
  streamIdleTimeoutMs?: number;
  /** Longest wait for the response headers, passed to the SDK (its default is 10 minutes). */
  requestTimeoutMs?: number;
  /**
   * Which OpenAI API to call. Unset: the Responses API for the models that need it on OpenAI's
   * own endpoint, chat.completions everywhere else (compatible servers rarely have Responses).
   */
  openAiApi?: OpenAiApi;
  /** Bedrock: the AWS region (default us-east-1). */
  awsRegion?: string;
  /** Bedrock: a profile of ~/.aws/config and ~/.aws/credentials (SSO ones too); unset: the default chain. */
  awsProfile?: string;
  /** Vertex: the Google Cloud project the requests are billed to. */
  vertexProjectId?: string;
  /** Vertex: the region ("global", "us-east5", "europe-west1" …; default global). */
  vertexRegion?: string;
  /**
   * What the provider's own model list says of the model (OpenRouter, Ollama, LM Studio, VS Code):
   * it fills what the catalogue does not know.
   */
  listedModel?: Partial<ModelInfo>;
}

export type OpenAiApi = "chat" | "responses";

export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = DEFAULT_AGENT_SETTINGS.stallTimeoutSeconds * 1000;
/** Anthropic's minimum thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** A validated configuration with the model resolved. */
export interface ResolvedConfiguration {
  provider: ProviderId;
  apiKey?: string;
  baseUrl?: string;
  model: { id: string; info: ModelInfo };
  /** Only set when the model reasons (`model.info.thinking` is not "none"). */
  thinkingBudgetTokens?: number;
  streamIdleTimeoutMs: number;
  requestTimeoutMs?: number;
  /** Only meaningful for the "openai" provider. */
  openAiApi: OpenAiApi;
  awsRegion?: string;
  awsProfile?: string;
  vertexProjectId?: string;
  vertexRegion?: string;
}

/** `now` decides whether a deprecated model has reached its retirement date. */
export function resolveConfiguration(config: ApiConfiguration, now: Date = new Date()): ResolvedConfiguration {
  if (!isProviderId(config.provider)) {
    throw new Error(`Unknown API provider "${String(config.provider)}"; expected ${providerChoices()}.`);
  }
  const given = checkSettings(config);
  const model = resolveModel(config.provider, config.modelId, config.contextWindowOverride, config.listedModel);
  if (!model.id) {
    throw new Error(`${PROVIDERS[config.provider].name} has no default model: choose one (the settings view lists the server's models; the CLI: tandem models --provider ${config.provider}).`);
  }
  // Only the provider's own endpoint is known to refuse a retired id; a proxy may map it anew.
  if (given === undefined) checkNotRetired(config.provider, model.id, now);
  const budget = thinkingBudget(model, config.thinkingBudgetTokens);
  const baseUrl = given ?? PROVIDERS[config.provider].defaultBaseUrl;
  return {
    provider: config.provider,
    apiKey: config.apiKey?.trim() || undefined,
    ...(baseUrl ? { baseUrl } : {}),
    model,
    thinkingBudgetTokens: budget,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    requestTimeoutMs: config.requestTimeoutMs,
    openAiApi: config.openAiApi ?? (model.info.needsResponsesApi && given === undefined && config.provider === "openai" ? "responses" : "chat"),
    ...optionalText("awsRegion", config.awsRegion),
    ...optionalText("awsProfile", config.awsProfile),
    ...optionalText("vertexProjectId", config.vertexProjectId),
    ...optionalText("vertexRegion", config.vertexRegion),
  };
}

/** Checks what needs no model; returns the base URL the person gave, if any. */
function checkSettings(config: ApiConfiguration): string | undefined {
  for (const field of PROVIDERS[config.provider].required ?? []) {
    const value = config[field];
    if (typeof value !== "string" || !value.trim()) throw new Error(`${PROVIDERS[config.provider].name} needs ${fieldHint(config.provider, field)}.`);
  }
  checkPositive("streamIdleTimeoutMs", config.streamIdleTimeoutMs);
  checkPositive("requestTimeoutMs", config.requestTimeoutMs);
  checkPositive("thinkingBudgetTokens", config.thinkingBudgetTokens);
  if (config.openAiApi !== undefined && config.openAiApi !== "chat" && config.openAiApi !== "responses") {
    throw new Error(`openAiApi must be "chat" or "responses" (or unset for automatic), got ${JSON.stringify(config.openAiApi)}.`);
  }
  const given = config.baseUrl?.trim() || undefined;
  if (given !== undefined && !URL.canParse(given)) {
    throw new Error(`The API base URL "${given}" is not a valid URL.`);
  }
  return given;
}

/** The budget to send: none for a model that does not reason; a manual one must fit below the output limit. */
function thinkingBudget(model: { id: string; info: ModelInfo }, requested: number | undefined): number | undefined {
  const budget = model.info.thinking === "none" ? undefined : requested;
  if (model.info.thinking === "manual" && budget !== undefined && (budget < MIN_THINKING_BUDGET || budget >= model.info.maxOutputTokens)) {
    throw new Error(`thinkingBudgetTokens must be between ${MIN_THINKING_BUDGET} and ${model.info.maxOutputTokens - 1} for ${model.id}, got ${budget}.`);
  }
  return budget;
}

function checkNotRetired(provider: ProviderId, modelId: string, now: Date): void {
  const retirement = retirementOf(provider, modelId, now);
  if (!retirement) return;
  const when = retirement.retiredOn ? ` on ${retirement.retiredOn}` : "";
  throw new Error(
    `The model "${modelId}" was retired by ${PROVIDERS[provider].vendor}${when}; ` +
      `choose a current one${DEFAULT_MODEL_ID[provider] ? `, such as ${DEFAULT_MODEL_ID[provider]}` : ""}.`,
  );
}

/** A trimmed setting, left out when empty. */
function optionalText<K extends string>(name: K, value: string | undefined): Partial<Record<K, string>> {
  const trimmed = value?.trim();
  return trimmed ? ({ [name]: trimmed } as Record<K, string>) : {};
}

function checkPositive(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isFinite(value) || value <= 0)) {
    throw new Error(`${name} must be a positive number, got ${value}.`);
  }
}
