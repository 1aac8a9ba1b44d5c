/**
 * The `openai` SDK client both OpenAI handlers use (chat.completions and Responses): OpenAI's own
 * endpoint or a compatible server chosen by base URL, and never a retry of the SDK's own, since
 * retrying is the Task's business.
 */
import OpenAI from "openai";
import type { ResolvedConfiguration } from "../config.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** The SDK refuses an empty key, and local servers ignore whatever is sent. */
const PLACEHOLDER_KEY = "not-needed";

export function createOpenAiClient(config: ResolvedConfiguration): OpenAI {
  return new OpenAI({
    apiKey: config.apiKey ?? PLACEHOLDER_KEY,
    baseURL: config.baseUrl ?? DEFAULT_BASE_URL,
    // Explicit nulls keep the SDK from picking up OPENAI_* variables of the environment.
    organization: null,
    project: null,
    maxRetries: 0,
    ...(config.requestTimeoutMs ? { timeout: config.requestTimeoutMs } : {}),
  });
}

/** How errors and logs name the server. */
export function openAiServerName(config: ResolvedConfiguration): string {
  return config.baseUrl ? `OpenAI-compatible server at ${new URL(config.baseUrl).host}` : "OpenAI";
}
