/**
 * The API layer's front door: build a handler from settings. Everything the core needs from
 * this folder is exported here.
 */
import { resolveConfiguration, type ApiConfiguration } from "./config.js";
import { AnthropicHandler } from "./providers/anthropic.js";
import { isGeminiModel } from "./gemini-models.js";
import { DeferredHandler } from "./providers/deferred-handler.js";
import { OpenAiHandler } from "./providers/openai.js";
import { OpenAiResponsesHandler } from "./providers/openai-responses.js";
import type { ApiHandler } from "./types.js";
import { PROVIDERS } from "../shared/providers.js";

export function buildApiHandler(config: ApiConfiguration): ApiHandler {
  const resolved = resolveConfiguration(config);
  switch (resolved.provider) {
    case "anthropic":
      return new AnthropicHandler(resolved);
    case "openai":
      return resolved.openAiApi === "responses" ? new OpenAiResponsesHandler(resolved) : new OpenAiHandler(resolved);
    case "openrouter":
    case "ollama":
    case "lmstudio":
      return new OpenAiHandler(resolved);
    // Their SDKs load with their first request (deferred-handler.ts).
    case "gemini":
      return new DeferredHandler(resolved, async () => new (await import("./providers/gemini.js")).GeminiHandler(resolved));
    case "bedrock":
      return new DeferredHandler(resolved, async () => new (await import("./providers/bedrock.js")).BedrockHandler(resolved), resolved.model.info.supportsPromptCache);
    case "vertex":
      return new DeferredHandler(
        resolved,
        async () => (await import("./providers/vertex.js")).vertexHandler(resolved),
        !isGeminiModel(resolved.model.id) && resolved.model.info.supportsPromptCache,
      );
    case "vscode-lm":
      // Its handler lives in the VS Code host (it needs the vscode API), which builds it itself.
      throw new Error(`${PROVIDERS[resolved.provider].name} are only available inside VS Code.`);
  }
}

export type { ApiConfiguration } from "./config.js";
export { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from "./config.js";
export type * from "./types.js";
export { ApiError, isApiError, type ApiErrorKind, type ApiErrorDetails } from "./errors.js";
export { calculateCost, type NormalisedUsage } from "./cost.js";
export { resolveModel, UNKNOWN_MODEL_INFO, type ProviderId } from "./model-info.js";
export { classifyError } from "./classify-error.js";
