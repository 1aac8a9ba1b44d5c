/**
 * Where the Controller keeps what outlives a task. The VS Code host backs these with the
 * workspace configuration and SecretStorage; tests and the CLI with memory or the environment.
 */
import type { ApiSettings, ProviderId } from "../../shared/protocol";
import type { AgentSettings } from "../../shared/settings";
import type { DisposableLike } from "../util/disposable";

export interface SettingsStore {
  getAgentSettings(): AgentSettings;
  getApiSettings(): ApiSettings;
  updateAgentSettings(change: Partial<AgentSettings>): Promise<void>;
  updateApiSettings(change: Partial<ApiSettings>): Promise<void>;
  /** Called when the settings change from outside (e.g. the person edits settings.json). */
  onDidChange(listener: () => void): DisposableLike;
}

/** API keys. Never logged, never sent to the webview. */
export interface SecretStore {
  getApiKey(provider: ProviderId): Promise<string | undefined>;
  /** An empty key deletes the stored one. */
  setApiKey(provider: ProviderId, apiKey: string): Promise<void>;
}

/** Settings and keys in memory: for tests and the headless runner. */
export class MemorySettingsStore implements SettingsStore {
  private readonly listeners = new Set<() => void>();

  constructor(
    private agent: AgentSettings,
    private api: ApiSettings,
  ) {}

  getAgentSettings(): AgentSettings {
    return this.agent;
  }

  getApiSettings(): ApiSettings {
    return this.api;
  }

  async updateAgentSettings(change: Partial<AgentSettings>): Promise<void> {
    this.agent = { ...this.agent, ...change };
    this.emit();
  }

  async updateApiSettings(change: Partial<ApiSettings>): Promise<void> {
    this.api = { ...this.api, ...change };
    this.emit();
  }

  onDidChange(listener: () => void): DisposableLike {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

export class MemorySecretStore implements SecretStore {
  private readonly keys = new Map<ProviderId, string>();

  async getApiKey(provider: ProviderId): Promise<string | undefined> {
    return this.keys.get(provider);
  }

  async setApiKey(provider: ProviderId, apiKey: string): Promise<void> {
    if (apiKey) this.keys.set(provider, apiKey);
    else this.keys.delete(provider);
  }
}
