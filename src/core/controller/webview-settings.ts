/** The settings as the panel shows them: the stored ones, which providers have a key, the model a task would use and its context window. */
import { catalogueIdOf, resolveModel } from "../../api/model-info";
import type { ModelInfo } from "../../api/types";
import { keyMissing, PROVIDER_IDS, PROVIDERS, takesField, type ProviderField } from "../../shared/providers";
import type { ApiSettings, ModelInUse, ProviderId, WebviewSettings } from "../../shared/protocol";
import type { ProviderModels } from "./provider-models";
import type { SecretStore, SettingsStore } from "./stores";

export async function webviewSettings(settings: SettingsStore, secrets: SecretStore, models: ProviderModels): Promise<WebviewSettings> {
  const api = settings.getApiSettings();
  const keyed = PROVIDER_IDS.filter((p) => takesField(p, "apiKey"));
  const keys = await Promise.all(keyed.map(async (p) => [p, Boolean(await secrets.getApiKey(p))] as const));
  const listed = await models.listedInfo(api);
  return {
    agent: settings.getAgentSettings(),
    api,
    hasApiKey: Object.fromEntries(keys) as Partial<Record<ProviderId, boolean>>,
    needsApiKey: needsApiKey(api, keys.some(([p, has]) => p === api.provider && has)),
    ...(await models.picker(api)),
    missingFields: missingFields(api),
    model: modelInUse(api, listed),
    contextWindow: resolveModel(api.provider, api.modelId, api.contextWindowOverride, listed).info.contextWindow,
  };
}

/** The model a task would use: resolveModel picks it (and owns the default), the catalogue names it. */
function modelInUse(api: ApiSettings, listed: Partial<ModelInfo> | undefined): ModelInUse {
  const { id } = resolveModel(api.provider, api.modelId, undefined, listed);
  const catalogueId = catalogueIdOf(api.provider, id) ?? (listed ? id : undefined);
  return { id, isDefault: !api.modelId?.trim(), ...(catalogueId === undefined ? {} : { catalogueId }) };
}

/** A task cannot start without the key its provider needs (src/shared/providers.ts says which do). */
export function needsApiKey(api: ApiSettings, hasKey: boolean): boolean {
  return keyMissing(api.provider, hasKey, api.baseUrl);
}

/** The provider's required settings that are empty. */
export function missingFields(api: ApiSettings): ProviderField[] {
  return (PROVIDERS[api.provider].required ?? []).filter((field) => !api[field]?.trim());
}

/** A model is chosen, or the provider has a default (Ollama, LM Studio and VS Code have none). */
export function hasModel(api: ApiSettings): boolean {
  return resolveModel(api.provider, api.modelId).id !== "";
}
