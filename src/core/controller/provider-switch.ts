/**
 * Switching providers in the settings view does not carry one provider's model and server to the
 * next (Ollama's "qwen3-coder:30b" at 127.0.0.1:11434 means nothing to Gemini): the settings left
 * behind are remembered per provider and given back when the person switches back.
 */
import type { ApiSettings } from "../../shared/protocol";
import type { ProviderId } from "../../shared/providers";

/** The settings that belong to one provider: what it serves and where. */
export type ProviderChoice = Pick<ApiSettings, "modelId" | "baseUrl">;

/** Where each provider's last choice is kept (VS Code's global state; memory elsewhere). */
export interface ProviderMemory {
  get(provider: ProviderId): ProviderChoice | undefined;
  set(provider: ProviderId, choice: ProviderChoice): void | PromiseLike<void>;
}

export function memoryProviderMemory(): ProviderMemory {
  const kept = new Map<ProviderId, ProviderChoice>();
  return { get: (provider) => kept.get(provider), set: (provider, choice) => void kept.set(provider, choice) };
}

/**
 * The change to store for `change`: when it switches the provider, the old one's model and base URL
 * are remembered and the new one's come back ("" clears a setting); what the change names itself wins.
 */
export async function withProviderSwitch(current: ApiSettings, change: Partial<ApiSettings>, memory: ProviderMemory): Promise<Partial<ApiSettings>> {
  const next = change.provider;
  if (next === undefined || next === current.provider) return change;
  await memory.set(current.provider, { ...(current.modelId ? { modelId: current.modelId } : {}), ...(current.baseUrl ? { baseUrl: current.baseUrl } : {}) });
  const back = memory.get(next) ?? {};
  return { modelId: back.modelId ?? "", baseUrl: back.baseUrl ?? "", ...change };
}
