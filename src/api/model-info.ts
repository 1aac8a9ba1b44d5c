/**
 * What we know about the models people commonly pick: context window, output limit, prices (USD
 * per million tokens, as published by the providers; checked 2026-11-29, they change, so treat
 * them as estimates), how each one reasons and whether it takes a temperature. An unknown model
 * gets conservative defaults rather than an error, because OpenAI-compatible servers serve
 * models under any name; a model its provider has retired gets a clear error instead.
 */
import type { NormalisedUsage } from "./cost.js";
import type { LongPromptPricing, ModelInfo, ThinkingMode } from "./types.js";
import { entry, type CatalogueEntry, type ModelStatus } from "./catalogue-entry.js";
import { DEFAULT_GEMINI_MODEL, GEMINI } from "./gemini-models.js";

import { PROVIDER_IDS, PROVIDERS, type ProviderId } from "../shared/providers.js";

export type { ProviderId } from "../shared/providers.js";
export type { ModelStatus } from "./catalogue-entry.js";
const M1 = 1_000_000;
const K128 = 128_000;
/**
 * Claude 4.7 and later: adaptive thinking only (manual budgets are a 400) and no non-default
 * temperature (a 400 too). Claude 4.6 takes adaptive thinking but still accepts a temperature
 * while thinking is off. Sources: the SDK's own note on `temperature` in messages.d.ts,
 * https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html,
 * https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview
 */
const CLAUDE_ADAPTIVE = { window: M1, output: K128, thinking: "adaptive", temperature: false } as const;
/** Claude 4.5 and earlier: manual extended thinking only. */
const CLAUDE_4_5 = { window: 200_000, output: 64_000, thinking: "manual", temperature: true } as const;

/** Pages: https://platform.claude.com/docs/{lang}/models/{model}/overview unless noted. */
const ANTHROPIC: Readonly<Record<string, CatalogueEntry>> = {
  // Sonnet 5.5: cache reads cut from $0.20 to $0.10 on 2026-10-07 (pricing page, as quoted by
  // github.com/kurofune/claudit v1.9.2 and docs.rs/synaps pricing; the model page predates it).
  "claude-sonnet-5-5": entry({ ...CLAUDE_ADAPTIVE, prices: [2, 10, 2.5, 0.1] }),
  "claude-opus-5-5": entry({ ...CLAUDE_ADAPTIVE, prices: [4, 20, 5, 0.2] }),
  // Fable 5.2 (2026-11-09) is newer than the SDK's model list; figures from
  // docs.apiyi.com/news/claude-fable-5-2-launch and github.com/archid21/rightsize v0.10.2.
  "claude-fable-5-2": entry({ ...CLAUDE_ADAPTIVE, prices: [8, 40, 10, 0.2] }),
  // Haiku 5.5 bills a whole request at higher rates once its prompt passes 100K tokens.
  "claude-haiku-5-5": entry({
    ...CLAUDE_ADAPTIVE,
    prices: [0.1, 0.5, 0.125, 0.01],
    longPrompt: { aboveTokens: 100_000, inputPrice: 0.5, outputPrice: 2.5, cacheWritePrice: 0.625, cacheReadPrice: 0.05 },
  }),
  "claude-fable-5-1": entry({ ...CLAUDE_ADAPTIVE, prices: [10, 50, 12.5, 0.25], status: "legacy" }),
  "claude-fable-5": entry({ ...CLAUDE_ADAPTIVE, prices: [10, 50, 12.5, 1], status: "legacy" }),
  "claude-opus-5": entry({ ...CLAUDE_ADAPTIVE, prices: [5, 25, 6.25, 0.5], status: "legacy" }),
  "claude-sonnet-5": entry({ ...CLAUDE_ADAPTIVE, prices: [2, 10, 2.5, 0.2], status: "legacy" }),
  "claude-opus-4-8": entry({ ...CLAUDE_ADAPTIVE, prices: [5, 25, 6.25, 0.5], status: "legacy" }),
  // Opus 4.7: https://apidog.com/blog/claude-opus-4-7-api/ (1M, 128K, adaptive only, no sampling).
  "claude-opus-4-7": entry({ ...CLAUDE_ADAPTIVE, prices: [5, 25, 6.25, 0.5], status: "legacy" }),
  "claude-opus-4-6": entry({ ...CLAUDE_ADAPTIVE, temperature: true, prices: [5, 25, 6.25, 0.5], status: "legacy" }),
  "claude-sonnet-4-6": entry({ ...CLAUDE_ADAPTIVE, temperature: true, prices: [3, 15, 3.75, 0.3], status: "legacy" }),
  "claude-haiku-4-5": entry({ ...CLAUDE_4_5, prices: [1, 5, 1.25, 0.1] }),
  // Deprecated 2026-11-23 (github.com/samarthputhraya/Modelpin v0.5.7); window and output as at launch.
  "claude-opus-4-5": entry({ ...CLAUDE_4_5, prices: [5, 25, 6.25, 0.5], status: "deprecated", retiresOn: "2027-01-22" }),
  "claude-sonnet-4-5": entry({ ...CLAUDE_4_5, prices: [3, 15, 3.75, 0.3], status: "deprecated", retiresOn: "2026-11-30" }),
};

/**
 * GPT-6 reasons at a default effort of "medium", and then refuses a temperature; on
 * chat.completions it refuses function tools while reasoning, hence the Responses API.
 */
const GPT_6 = { window: 1_050_000, output: K128, thinking: "adaptive", temperature: false, responsesApi: true } as const;
/** Shut down 2027-01-14 (developers.openai.com/api/docs/deprecations); 2025 prices. */
const GPT_4 = { thinking: "none", temperature: true, status: "deprecated", retiresOn: "2027-01-14" } as const;
/** DeepSeek V4: thinking mode by default, in which sampling parameters do nothing. */
const DEEPSEEK = { window: M1, output: 384_000, thinking: "adaptive", temperature: false } as const;
/** OpenAI's long-context rule: above 272K input tokens, input and cache rates double, output is 1.5x. */
function gpt6Long(input: number, output: number, cacheWrite: number, cacheRead: number): LongPromptPricing {
  return { aboveTokens: 272_000, inputPrice: input * 2, outputPrice: output * 1.5, cacheWritePrice: cacheWrite * 2, cacheReadPrice: cacheRead * 2 };
}

/** Pages: https://developers.openai.com/api/docs/models/{model} unless noted. */
const OPENAI: Readonly<Record<string, CatalogueEntry>> = {
  "gpt-6.2-sol": entry({ ...GPT_6, prices: [2, 10, 2.5, 0.1], longPrompt: gpt6Long(2, 10, 2.5, 0.1) }),
  // Cached input from github.com/akiiwa-games/AgentCompass-Router v0.6.8; no cache-write price
  // found, so writes are priced as plain input.
  "gpt-6.2-astra": entry({ ...GPT_6, prices: [8, 40, 8, 0.4] }),
  "gpt-6.1-terra": entry({ ...GPT_6, prices: [1, 5, 1.25, 0.05], longPrompt: gpt6Long(1, 5, 1.25, 0.05) }),
  // Cached input: codersera.com/blog/gpt-4o-gpt-4-1-api-shutdown-migration-2026; writes as plain input.
  "gpt-6-luna": entry({ ...GPT_6, prices: [0.1, 0.5, 0.1, 0.01] }),
  "gpt-6.1-sol": entry({ ...GPT_6, prices: [2, 10, 2.5, 0.1], status: "legacy", longPrompt: gpt6Long(2, 10, 2.5, 0.1) }),
  "gpt-4.1": entry({ ...GPT_4, window: 1_047_576, output: 32_768, prices: [2, 8, 0, 0.5] }),
  "gpt-4.1-mini": entry({ ...GPT_4, window: 1_047_576, output: 32_768, prices: [0.4, 1.6, 0, 0.1] }),
  "gpt-4o": entry({ ...GPT_4, window: 128_000, output: 16_384, prices: [2.5, 10, 0, 1.25] }),
  "gpt-4o-mini": entry({ ...GPT_4, window: 128_000, output: 16_384, prices: [0.15, 0.6, 0, 0.075] }),
  // DeepSeek (https://api-docs.deepseek.com/quick_start/pricing, 2026-11-15) bills half these
  // peak rates off-peak; the peak rate keeps the estimate an upper bound. It thinks by default.
  "deepseek-flash": entry({ ...DEEPSEEK, prices: [0.3, 1.2, 0.3, 0.006] }),
  "deepseek-v4-pro": entry({ ...DEEPSEEK, prices: [1.32, 3.96, 1.32, 0.044], images: false }),
  // A legacy name DeepSeek still accepts, served and billed as deepseek-flash.
  "deepseek-v4-flash": entry({ ...DEEPSEEK, prices: [0.3, 1.2, 0.3, 0.006], status: "deprecated" }),
};

/** Retired ids and the date requests started failing, where known. */
const RETIRED: Partial<Readonly<Record<ProviderId, Readonly<Record<string, string | undefined>>>>> = {
  anthropic: {
    "claude-sonnet-4-0": "2026-06-15",
    "claude-sonnet-4": "2026-06-15",
    "claude-opus-4-0": "2026-06-15",
    "claude-opus-4": "2026-06-15",
    "claude-opus-4-1": "2026-08-05",
    "claude-3-7-sonnet": "2026-02-19",
    "claude-3-5-sonnet": "2025-10-28",
    "claude-3-5-haiku": undefined,
  },
  openai: {
    "o4-mini": "2026-10-23",
    "o3-mini": "2026-10-23",
    o1: "2026-10-23",
    "gpt-4.1-nano": "2026-10-23",
    "gpt-4-turbo": "2026-10-23",
    "gpt-4": "2026-10-23",
    "gpt-3.5-turbo": "2026-10-23",
  },
};

/**
 * Bedrock and Vertex serve Claude at Anthropic's prices (Bedrock's regional endpoints, unlike its
 * global profiles, add 10%: the estimate is the lower figure). OpenRouter passes the vendors'
 * prices on; its own model list, read from the server, wins over these. Ollama, LM Studio and
 * VS Code name their models themselves: only their lists know them.
 */
const CATALOGUE: Readonly<Record<ProviderId, Readonly<Record<string, CatalogueEntry>>>> = {
  anthropic: ANTHROPIC,
  openai: OPENAI,
  gemini: GEMINI,
  bedrock: ANTHROPIC,
  vertex: { ...ANTHROPIC, ...GEMINI },
  openrouter: { ...ANTHROPIC, ...OPENAI, ...GEMINI },
  ollama: {},
  lmstudio: {},
  "vscode-lm": {},
};

function infoOf(entries: Readonly<Record<string, CatalogueEntry>>): Readonly<Record<string, ModelInfo>> {
  return Object.fromEntries(Object.entries(entries).map(([id, { info }]) => [id, info]));
}

export const ANTHROPIC_MODELS = infoOf(ANTHROPIC);
export const OPENAI_MODELS = infoOf(OPENAI);

/** Current models, neither legacy nor near retirement; the local servers and VS Code have none. */
export const DEFAULT_MODEL_ID: Readonly<Partial<Record<ProviderId, string>>> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-6.2-sol",
  gemini: DEFAULT_GEMINI_MODEL,
  // An inference profile every commercial region offers.
  bedrock: "global.anthropic.claude-sonnet-5-5",
  vertex: "claude-sonnet-5-5",
  openrouter: "anthropic/claude-sonnet-5-5",
};

/** For a model we know nothing about: a common window, no prices, no claims, nothing it might refuse. */
export const UNKNOWN_MODEL_INFO: Readonly<ModelInfo> = {
  contextWindow: 128_000,
  maxOutputTokens: 8_192,
  inputPrice: 0,
  outputPrice: 0,
  cacheWritePrice: 0,
  cacheReadPrice: 0,
  supportsImages: false,
  supportsPromptCache: false,
  supportsThinking: false,
  thinking: "none",
  supportsTemperature: false,
};

/**
 * The keys a model id may be filed under: exact, then bare: without a router's vendor prefix or
 * an ARN's path ("openai/gpt-4.1", "arn:…:inference-profile/us.anthropic.…"), Bedrock's region and
 * vendor prefix and version suffix ("us.anthropic.claude-sonnet-4-5-20250929-v1:0"), Vertex's
 * version ("claude-sonnet-4-5@20250929") and a date suffix ("gpt-4o-2024-08-06"); then without a
 * local server's tag ("deepseek-v4-flash:latest").
 */
function keysOf(modelId: string): string[] {
  const bare = modelId
    .replace(/^.*\//, "")
    .replace(/^(?:[a-z]{2,6}(?:-gov)?\.)?(?:anthropic|google|amazon|meta|mistral|deepseek)\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/@(?:\d{8}|latest|default)$/, "")
    .replace(/(-\d{4}-?\d{2}-?\d{2}|-latest)$/, "");
  return [modelId, bare, bare.replace(/:.*$/, "")];
}

function lookUp<T>(table: Readonly<Record<string, T>>, modelId: string): T | undefined {
  for (const key of keysOf(modelId)) {
    if (Object.hasOwn(table, key)) return table[key];
  }
  return undefined;
}

/** The catalogue's id the model is filed under (see keysOf), or undefined for a model it does not know. */
export function catalogueIdOf(provider: ProviderId, modelId: string): string | undefined {
  const key = keysOf(modelId.trim()).find((candidate) => Object.hasOwn(CATALOGUE[provider], candidate));
  return key === undefined ? undefined : listedIdOf(provider, key);
}

/** Claude 4.5's releases, which Bedrock and Vertex name with their date; later ones have none. */
const CLAUDE_RELEASE_DATES: Readonly<Record<string, string>> = {
  "claude-haiku-4-5": "20251001",
  "claude-sonnet-4-5": "20250929",
  "claude-opus-4-5": "20251101",
};

/**
 * The id a provider is sent for a catalogued model, where it is not the catalogue's: Bedrock's
 * global inference profile ("global.anthropic.claude-sonnet-5-5", every commercial region has it;
 * "…-20250929-v1:0" for 4.5 and "-v1" for Opus 4.6, as Bedrock lists them), Vertex's "@date" for 4.5.
 */
export function listedIdOf(provider: ProviderId, catalogueId: string): string {
  if (!catalogueId.startsWith("claude-")) return catalogueId;
  const date = CLAUDE_RELEASE_DATES[catalogueId];
  if (provider === "bedrock") return `global.anthropic.${catalogueId}${date ? `-${date}-v1:0` : catalogueId === "claude-opus-4-6" ? "-v1" : ""}`;
  if (provider === "vertex" && date) return `${catalogueId}@${date}`;
  return catalogueId;
}

/** The model to use and what we know of it; `contextWindowOverride` wins over the catalogue. */
/** gpt-6*, gpt-7* …, and gpt-5.4 onwards (gpt-5.10 too). */
const NEEDS_RESPONSES_API = /^gpt-(?:[6-9]|\d{2,}|5\.(?:[4-9]|\d{2,}))(?:\b|[.-])/;

/**
 * `listed` is what the provider's own model list says of the model: it wins over the catalogue;
 * `contextWindowOverride` wins over both. With no id and no default, the id is "" (no model).
 */
export function resolveModel(
  provider: ProviderId,
  modelId?: string,
  contextWindowOverride?: number,
  listed?: Partial<ModelInfo>,
): { id: string; info: ModelInfo } {
  if (contextWindowOverride !== undefined && (!Number.isInteger(contextWindowOverride) || contextWindowOverride <= 0)) {
    throw new RangeError(`contextWindowOverride must be a positive whole number, got ${contextWindowOverride}`);
  }
  const id = modelId?.trim() || DEFAULT_MODEL_ID[provider] || "";
  const known = lookUp(CATALOGUE[provider], id)?.info;
  const info: ModelInfo = { ...(known ?? UNKNOWN_MODEL_INFO), ...definedOnly(listed) };
  info.supportsThinking = info.thinking !== "none";
  // A newer GPT-6 or GPT-5.x (x >= 4) than the catalogue knows behaves like its family.
  if (!known && provider === "openai" && NEEDS_RESPONSES_API.test(id)) info.needsResponsesApi = true;
  if (contextWindowOverride !== undefined) {
    info.contextWindow = contextWindowOverride;
    // An output limit larger than the whole window would make every request fail.
    info.maxOutputTokens = Math.min(info.maxOutputTokens, contextWindowOverride);
  }
  return { id, info };
}

function definedOnly(listed: Partial<ModelInfo> | undefined): Partial<ModelInfo> {
  return Object.fromEntries(Object.entries(listed ?? {}).filter(([, value]) => value !== undefined)) as Partial<ModelInfo>;
}

/**
 * Whether the provider has retired this model by `now`: listed as retired, or deprecated with a
 * retirement date that has come. `retiredOn` is absent when the date is unknown.
 */
export function retirementOf(provider: ProviderId, modelId: string, now: Date = new Date()): { retiredOn?: string } | undefined {
  const keys = keysOf(modelId.trim());
  const retired = RETIRED[provider] ?? {};
  const listed = keys.find((key) => Object.hasOwn(retired, key));
  if (listed !== undefined) {
    const date = retired[listed];
    return date ? { retiredOn: date } : {};
  }
  const retiresOn = lookUp(CATALOGUE[provider], modelId.trim())?.retiresOn;
  return retiresOn !== undefined && now.getTime() >= Date.parse(retiresOn) ? { retiredOn: retiresOn } : undefined;
}

/** The prices that apply to one request, given its token counts (long prompts may cost more). */
export function pricesFor(
  info: ModelInfo,
  usage: NormalisedUsage,
): Pick<ModelInfo, "inputPrice" | "outputPrice" | "cacheWritePrice" | "cacheReadPrice"> {
  const prompt = usage.inputTokens + (usage.cacheWriteTokens ?? 0) + (usage.cacheReadTokens ?? 0);
  const long = info.longPromptPricing;
  return long && prompt > long.aboveTokens ? long : info;
}

/** One row of the settings view's model picker; fits `ModelCatalogEntry` in src/shared/protocol.ts. */
export interface ModelListing {
  provider: ProviderId;
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens (the short-prompt rates where there are two). */
  inputPrice: number;
  outputPrice: number;
  cacheWritePrice: number;
  cacheReadPrice: number;
  thinking: ThinkingMode;
  status: ModelStatus;
  retiresOn?: string;
}

const STATUS_ORDER: readonly ModelStatus[] = ["active", "legacy", "deprecated"];

/** Every catalogued model, current ones first, for one provider or both. */
export function listModels(provider?: ProviderId): ModelListing[] {
  // The others' models come from their server's list; their tables only fill in what a list lacks.
  const providers = provider ? [provider] : PROVIDER_IDS.filter((p) => PROVIDERS[p].models === "catalogue");
  return providers.flatMap((p) =>
    Object.entries(CATALOGUE[p])
      .sort(([, a], [, b]) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status))
      .map(([id, item]) => toListing(p, listedIdOf(p, id), item)),
  );
}

function toListing(provider: ProviderId, id: string, { info, status, retiresOn }: CatalogueEntry): ModelListing {
  return modelListing(provider, id, info, status, retiresOn);
}

/** A picker row from what is known of a model (the catalogue's entry, or a server's list over it). */
export function modelListing(provider: ProviderId, id: string, info: ModelInfo, status: ModelStatus, retiresOn?: string): ModelListing {
  return {
    provider,
    id,
    contextWindow: info.contextWindow,
    maxOutputTokens: info.maxOutputTokens,
    inputPrice: info.inputPrice,
    outputPrice: info.outputPrice,
    cacheWritePrice: info.cacheWritePrice,
    cacheReadPrice: info.cacheReadPrice,
    thinking: info.thinking,
    status,
    ...(retiresOn ? { retiresOn } : {}),
  };
}
