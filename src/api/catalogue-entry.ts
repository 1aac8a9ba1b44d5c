/**
 * One model of the catalogue (src/api/model-info.ts and the per-vendor tables beside it), written
 * compactly as a `Spec` and expanded by `entry` into the `ModelInfo` the handlers read.
 */
import type { LongPromptPricing, ModelInfo, ThinkingMode } from "./types.js";

/** "legacy": still served, superseded; "deprecated": a retirement date is set. */
export type ModelStatus = "active" | "legacy" | "deprecated";

export interface CatalogueEntry {
  info: ModelInfo;
  status: ModelStatus;
  /** ISO date from which requests fail. */
  retiresOn?: string;
}

export interface Spec {
  window: number;
  output: number;
  /** input, output, cache write (5 min), cache read */
  prices: [number, number, number, number];
  thinking: ThinkingMode;
  temperature: boolean;
  images?: boolean;
  status?: ModelStatus;
  retiresOn?: string;
  longPrompt?: LongPromptPricing;
  responsesApi?: boolean;
}

export function entry(spec: Spec): CatalogueEntry {
  const [inputPrice, outputPrice, cacheWritePrice, cacheReadPrice] = spec.prices;
  return {
    info: {
      contextWindow: spec.window,
      maxOutputTokens: spec.output,
      inputPrice,
      outputPrice,
      cacheWritePrice,
      cacheReadPrice,
      supportsImages: spec.images ?? true,
      // Anthropic caches at our breakpoints; OpenAI and DeepSeek cache by themselves.
      supportsPromptCache: true,
      supportsThinking: spec.thinking !== "none",
      thinking: spec.thinking,
      supportsTemperature: spec.temperature,
      ...(spec.longPrompt ? { longPromptPricing: spec.longPrompt } : {}),
      ...(spec.responsesApi ? { needsResponsesApi: true } : {}),
    },
    status: spec.status ?? "active",
    ...(spec.retiresOn ? { retiresOn: spec.retiresOn } : {}),
  };
}

