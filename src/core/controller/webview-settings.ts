/** The settings as the panel shows them: the stored ones, which providers have a key, the model a task would use and its context window. */
import { catalogueIdOf, listModels, resolveModel } from "../../api/model-info";
import { PROVIDER_IDS } from "../../shared/providers";
import type { ApiSettings, ModelInUse, ProviderId, WebviewSettings } from "../../shared/protocol";
import type { SecretStore, SettingsStore } from "./stores";

export async function webviewSettings(settings: SettingsStore, secrets: SecretStore): Promise<WebviewSettings> {
  const api = settings.getApiSettings();
  const keys = await Promise.all(PROVIDER_IDS.map(async (p) => [p, Boolean(await secrets.getApiKey(p))] as const));
  return {
    agent: settings.getAgentSettings(),
    api,
    hasApiKey: Object.fromEntries(keys) as Record<ProviderId, boolean>,
    needsApiKey: needsApiKey(api, keys.some(([p, has]) => p === api.provider && has)),
    models: listModels(),
    model: modelInUse(api),
    contextWindow: resolveModel(api.provider, api.modelId, api.contextWindowOverride).info.contextWindow,
  };
}

/** The model a task would use: resolveModel picks it (and owns the default), the catalogue names it. */
function modelInUse(api: ApiSettings): ModelInUse {
  const { id } = resolveModel(api.provider, api.modelId);
  const catalogueId = catalogueIdOf(api.provider, id);
  return { id, isDefault: !api.modelId?.trim(), ...(catalogueId === undefined ? {} : { catalogueId }) };
}

/** A task cannot start without a key, except against a local OpenAI-compatible server (a base URL). */
export function needsApiKey(api: ApiSettings, hasKey: boolean): boolean {
  return !hasKey && !(api.provider === "openai" && api.baseUrl?.trim());
}
