/**
 * The API layer's front door: build a handler from settings. Everything the core needs from
 * this folder is exported here.
 */
import { resolveConfiguration, type ApiConfiguration } from "./config.js";
import { AnthropicHandler } from "./providers/anthropic.js";
import { OpenAiHandler } from "./providers/openai.js";
import { OpenAiResponsesHandler } from "./providers/openai-responses.js";
import type { ApiHandler } from "./types.js";

export function buildApiHandler(config: ApiConfiguration): ApiHandler {
  const resolved = resolveConfiguration(config);
  switch (resolved.provider) {
    case "anthropic":
      return new AnthropicHandler(resolved);
    case "openai":
      return resolved.openAiApi === "responses" ? new OpenAiResponsesHandler(resolved) : new OpenAiHandler(resolved);
  }
}

export type { ApiConfiguration } from "./config.js";
export { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from "./config.js";
export type * from "./types.js";
export { ApiError, isApiError, type ApiErrorKind, type ApiErrorDetails } from "./errors.js";
export { calculateCost, type NormalisedUsage } from "./cost.js";
export { resolveModel, UNKNOWN_MODEL_INFO, type ProviderId } from "./model-info.js";
export { classifyError } from "./classify-error.js";
