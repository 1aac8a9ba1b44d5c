import type { ProviderId } from "../../../src/shared/protocol";

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI-compatible",
};

export const PROVIDERS = Object.keys(PROVIDER_NAMES) as ProviderId[];
