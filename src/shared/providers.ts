/**
 * The model providers Tandem talks to: the one list that settings, API keys, the CLI, the model
 * catalogue and the panel read. A new provider is an entry here, its handler in `src/api`, and
 * its models in the catalogue.
 */
export const PROVIDERS = {
  anthropic: { name: "Anthropic", vendor: "Anthropic", keyEnv: "ANTHROPIC_API_KEY", baseUrlEnv: "ANTHROPIC_BASE_URL" },
  openai: { name: "OpenAI-compatible", vendor: "OpenAI", keyEnv: "OPENAI_API_KEY", baseUrlEnv: "OPENAI_BASE_URL" },
} as const;

export type ProviderId = keyof typeof PROVIDERS;

/** In the order the panel offers them. */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as ProviderId[];

export const DEFAULT_PROVIDER: ProviderId = "anthropic";

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && Object.hasOwn(PROVIDERS, value);
}

/** "anthropic or openai": what messages say is accepted. */
export function providerChoices(): string {
  return PROVIDER_IDS.join(" or ").replace(/ or (?=.* or )/g, ", ");
}
