/**
 * The model providers Tandem talks to: the one list that settings, secrets, the CLI, the model
 * catalogue and the panel read. A new provider is an entry here, its handler in `src/api`, and
 * its models in the catalogue (or a model list read from its server).
 */

/** A setting a provider takes besides the model; which ones it takes is its entry's `fields`. */
export type ProviderField = "apiKey" | "baseUrl" | "awsRegion" | "awsProfile" | "vertexProjectId" | "vertexRegion";

/** How each setting is shown and given: its label in the settings view, its CLI flag, its placeholder. */
export const PROVIDER_FIELDS: Readonly<Record<ProviderField, { readonly label: string; readonly flag?: string; readonly placeholder: string }>> = {
  // Keys come from the environment in the CLI (a flag would leave them in the shell's history).
  apiKey: { label: "API key", placeholder: "" },
  baseUrl: { label: "Base URL", flag: "base-url", placeholder: "The provider's default" },
  awsRegion: { label: "AWS region", flag: "aws-region", placeholder: "us-east-1" },
  awsProfile: { label: "AWS profile", flag: "aws-profile", placeholder: "The default credential chain" },
  vertexProjectId: { label: "Google Cloud project", flag: "vertex-project", placeholder: "my-project-id" },
  vertexRegion: { label: "Vertex region", flag: "vertex-region", placeholder: "global" },
};

/** Where the model picker's list comes from: the catalogue in src/api/model-info.ts, or the server. */
export type ModelSource = "catalogue" | "openrouter" | "ollama" | "lmstudio" | "vscode";

export interface ProviderSpec {
  /** Shown in the panel and in messages. */
  readonly name: string;
  /** Who retires the models (errors say "retired by …"). */
  readonly vendor: string;
  /** The settings the person fills in, in the order the settings view shows them. */
  readonly fields: readonly ProviderField[];
  /** Settings without which no request can be made (the key is `needsKey`'s). */
  readonly required?: readonly Exclude<ProviderField, "apiKey">[];
  /**
   * No task starts without a key; "unlessBaseUrl": unless a base URL names another server (a local
   * one takes none). Others sign with a credential chain, or run locally.
   */
  readonly needsKey: boolean | "unlessBaseUrl";
  /** CLI: the environment variables each field is read from, first set wins. */
  readonly env: Partial<Readonly<Record<ProviderField, readonly string[]>>>;
  /** The endpoint used when no base URL is set (presets of the OpenAI-compatible provider). */
  readonly defaultBaseUrl?: string;
  readonly models: ModelSource;
  /** Only the VS Code extension has it (the CLI refuses it with a clear error). */
  readonly extensionOnly?: boolean;
}

const PROVIDER_TABLE = {
  anthropic: {
    name: "Anthropic",
    vendor: "Anthropic",
    fields: ["apiKey", "baseUrl"],
    needsKey: true,
    env: { apiKey: ["ANTHROPIC_API_KEY"], baseUrl: ["ANTHROPIC_BASE_URL"] },
    models: "catalogue",
  },
  openai: {
    name: "OpenAI-compatible",
    vendor: "OpenAI",
    fields: ["apiKey", "baseUrl"],
    // OpenAI itself answers 401 without a key; local compatible servers take none.
    needsKey: "unlessBaseUrl",
    env: { apiKey: ["OPENAI_API_KEY"], baseUrl: ["OPENAI_BASE_URL"] },
    models: "catalogue",
  },
  gemini: {
    name: "Google Gemini",
    vendor: "Google",
    fields: ["apiKey", "baseUrl"],
    needsKey: true,
    env: { apiKey: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], baseUrl: ["GOOGLE_GEMINI_BASE_URL"] },
    models: "catalogue",
  },
  bedrock: {
    name: "AWS Bedrock",
    vendor: "Anthropic",
    // The key is a Bedrock API key; without one the AWS credential chain signs the requests.
    fields: ["awsRegion", "awsProfile", "apiKey", "baseUrl"],
    needsKey: false,
    env: {
      awsRegion: ["AWS_REGION", "AWS_DEFAULT_REGION"],
      awsProfile: ["AWS_PROFILE"],
      apiKey: ["AWS_BEARER_TOKEN_BEDROCK"],
      baseUrl: ["ANTHROPIC_BEDROCK_BASE_URL"],
    },
    models: "catalogue",
  },
  vertex: {
    name: "Google Vertex AI",
    vendor: "Google Cloud",
    // Application Default Credentials sign the requests: no key.
    fields: ["vertexProjectId", "vertexRegion", "baseUrl"],
    required: ["vertexProjectId"],
    needsKey: false,
    env: {
      vertexProjectId: ["GOOGLE_CLOUD_PROJECT", "ANTHROPIC_VERTEX_PROJECT_ID", "GCLOUD_PROJECT"],
      vertexRegion: ["GOOGLE_CLOUD_LOCATION", "CLOUD_ML_REGION"],
      baseUrl: ["VERTEX_BASE_URL"],
    },
    models: "catalogue",
  },
  openrouter: {
    name: "OpenRouter",
    vendor: "OpenRouter",
    fields: ["apiKey", "baseUrl"],
    needsKey: true,
    env: { apiKey: ["OPENROUTER_API_KEY"], baseUrl: ["OPENROUTER_BASE_URL"] },
    defaultBaseUrl: "https://openrouter.ai/api/v1",
    models: "openrouter",
  },
  ollama: {
    name: "Ollama",
    vendor: "Ollama",
    fields: ["baseUrl"],
    needsKey: false,
    // OLLAMA_HOST names the server (http://127.0.0.1:11434); its OpenAI-compatible API is under /v1.
    env: { baseUrl: ["OLLAMA_HOST"] },
    defaultBaseUrl: "http://127.0.0.1:11434",
    models: "ollama",
  },
  lmstudio: {
    name: "LM Studio",
    vendor: "LM Studio",
    fields: ["baseUrl"],
    needsKey: false,
    env: { baseUrl: ["LM_STUDIO_BASE_URL"] },
    defaultBaseUrl: "http://127.0.0.1:1234",
    models: "lmstudio",
  },
  "vscode-lm": {
    name: "VS Code Language Models (Copilot)",
    vendor: "VS Code",
    fields: [],
    needsKey: false,
    env: {},
    models: "vscode",
    extensionOnly: true,
  },
} as const satisfies Readonly<Record<string, ProviderSpec>>;

export type ProviderId = keyof typeof PROVIDER_TABLE;

export const PROVIDERS: Readonly<Record<ProviderId, ProviderSpec>> = PROVIDER_TABLE;

/** In the order the panel offers them. */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as ProviderId[];

export const DEFAULT_PROVIDER: ProviderId = "anthropic";

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && Object.hasOwn(PROVIDERS, value);
}

/** Whether a task can start: the key the provider needs is stored, or it needs none. */
export function keyMissing(id: ProviderId, hasKey: boolean, baseUrl: string | undefined): boolean {
  const needs = PROVIDERS[id].needsKey;
  return !hasKey && (needs === true || (needs === "unlessBaseUrl" && !baseUrl?.trim()));
}

/** How a person gives a setting: "the Google Cloud project (--vertex-project or GOOGLE_CLOUD_PROJECT in the CLI)". */
export function fieldHint(id: ProviderId, field: ProviderField): string {
  const { label, flag } = PROVIDER_FIELDS[field];
  const ways = [...(flag ? [`--${flag}`] : []), ...(PROVIDERS[id].env[field] ?? [])];
  return `the ${label}${ways.length ? ` (in the CLI: ${ways.join(" or ")})` : ""}`;
}

/** Whether the provider takes this setting. */
export function takesField(id: ProviderId, field: ProviderField): boolean {
  return PROVIDERS[id].fields.includes(field);
}

/** "anthropic, openai … or vscode-lm": what messages say is accepted. */
export function providerChoices(ids: readonly ProviderId[] = PROVIDER_IDS): string {
  return ids.join(" or ").replace(/ or (?=.* or )/g, ", ");
}
