/**
 * The one place the Controller reads settings from. Nothing copies settings into it: it asks the
 * source each time it decides, so a change made anywhere (the panel, settings.json, a key stored
 * from the command palette) is seen at the next decision without anyone forwarding it.
 */
import type { ApiConfiguration } from "../../api/config";
import type { ModelInfo } from "../../api/types";
import type { ApiSettings } from "../../shared/protocol";
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from "../../shared/settings";
import type { SecretStore, SettingsStore } from "./stores";

export interface SettingsSource {
  /** Read at every decision: a running task follows a change at its next one (e.g. YOLO turned on). */
  agentSettings(): AgentSettings;
  /** Read when a task starts: a running task keeps the client it started with. */
  apiConfiguration(): Promise<ApiConfiguration>;
  /** What the provider's model list says of another model of the same provider (the Plan-mode model). */
  listedModel?(modelId: string): Promise<Partial<ModelInfo> | undefined>;
}

/** Settings that never change during the run: the CLI's flags, a test's options. */
export function fixedSettings(api: ApiConfiguration, agent: Partial<AgentSettings> = {}): SettingsSource {
  const settings = { ...DEFAULT_AGENT_SETTINGS, ...agent };
  return { agentSettings: () => settings, apiConfiguration: async () => api };
}

/**
 * The editor's settings and its secret storage, read as they are now; `listed` tells what the
 * provider's model list says of the chosen model (src/core/controller/provider-models.ts).
 */
export function storedSettings(
  settings: SettingsStore,
  secrets: SecretStore,
  listed?: (api: ApiSettings) => Promise<Partial<ModelInfo> | undefined>,
): SettingsSource {
  return {
    agentSettings: () => settings.getAgentSettings(),
    apiConfiguration: async () => {
      const api = settings.getApiSettings();
      const listedModel = await listed?.(api);
      return { ...apiConfigurationOf(api, await secrets.getApiKey(api.provider)), ...(listedModel ? { listedModel } : {}) };
    },
    listedModel: async (modelId) => listed?.({ ...settings.getApiSettings(), modelId }),
  };
}

/** The settings view's fields as a client configuration: an emptied field arrives as "" or 0, and means "not set". */
function apiConfigurationOf(api: ApiSettings, apiKey: string | undefined): ApiConfiguration {
  return {
    provider: api.provider,
    apiKey: apiKey || undefined,
    baseUrl: api.baseUrl?.trim() || undefined,
    modelId: api.modelId?.trim() || undefined,
    thinkingBudgetTokens: api.thinkingBudgetTokens || undefined,
    contextWindowOverride: api.contextWindowOverride || undefined,
    openAiApi: api.openAiApi === "auto" ? undefined : api.openAiApi,
    awsRegion: api.awsRegion?.trim() || undefined,
    awsProfile: api.awsProfile?.trim() || undefined,
    vertexProjectId: api.vertexProjectId?.trim() || undefined,
    vertexRegion: api.vertexRegion?.trim() || undefined,
  };
}
