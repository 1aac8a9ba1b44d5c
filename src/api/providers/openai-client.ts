/**
 * The `openai` SDK client both OpenAI handlers use (chat.completions and Responses): OpenAI's own
 * endpoint or a compatible server chosen by base URL, and never a retry of the SDK's own, since
 * retrying is the Task's business.
 */
import OpenAI from "openai";
import type { ResolvedConfiguration } from "../config.js";
import { PROVIDERS } from "../../shared/providers.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** The SDK refuses an empty key, and local servers ignore whatever is sent. */
const PLACEHOLDER_KEY = "not-needed";

/** Ollama and LM Studio are named by their server (http://host:port); their OpenAI-compatible API is under /v1. */
const API_UNDER_V1: ReadonlySet<string> = new Set(["ollama", "lmstudio"]);

export function openAiBaseUrl(config: Pick<ResolvedConfiguration, "provider" | "baseUrl">): string {
  const url = config.baseUrl ?? DEFAULT_BASE_URL;
  if (!API_UNDER_V1.has(config.provider) || /\/v1\/?$/.test(url)) return url;
  return `${url.replace(/\/+$/, "")}/v1`;
}

export function createOpenAiClient(config: ResolvedConfiguration): OpenAI {
  return new OpenAI({
    apiKey: config.apiKey ?? PLACEHOLDER_KEY,
    baseURL: openAiBaseUrl(config),
    // Explicit nulls keep the SDK from picking up OPENAI_* variables of the environment.
    organization: null,
    project: null,
    maxRetries: 0,
    ...(config.requestTimeoutMs ? { timeout: config.requestTimeoutMs } : {}),
  });
}

/** How errors and logs name the server. */
export function openAiServerName(config: ResolvedConfiguration): string {
  if (config.provider !== "openai") return `${PROVIDERS[config.provider].name}${config.baseUrl ? ` at ${new URL(config.baseUrl).host}` : ""}`;
  return config.baseUrl ? `OpenAI-compatible server at ${new URL(config.baseUrl).host}` : "OpenAI";
}
