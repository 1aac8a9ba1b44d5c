/**
 * API keys in VS Code's SecretStorage (the OS keychain on desktop), one per provider under
 * `tandem.apiKey.<provider>`. Keys are never logged and never leave the extension host.
 */
import type * as vscode from "vscode";
import type { SecretStore } from "../../core/controller/stores";
import { isProviderId, providerChoices, PROVIDERS, takesField, type ProviderId } from "../../shared/providers";

export function apiKeySecretName(provider: ProviderId): string {
  return `tandem.apiKey.${provider}`;
}

export class VscodeSecretStore implements SecretStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async getApiKey(provider: ProviderId): Promise<string | undefined> {
    return (await this.secrets.get(apiKeySecretName(checkProvider(provider)))) || undefined;
  }

  async setApiKey(provider: ProviderId, apiKey: string): Promise<void> {
    const name = apiKeySecretName(checkProvider(provider));
    if (!takesField(provider, "apiKey")) throw new Error(`${PROVIDERS[provider].name} takes no API key.`);
    if (typeof apiKey !== "string") throw new Error("The API key must be text.");
    const key = apiKey.trim();
    if (key) await this.secrets.store(name, key);
    else await this.secrets.delete(name);
  }
}

/** The provider comes from the webview: an unknown one must not create a stray secret. */
function checkProvider(provider: unknown): ProviderId {
  if (!isProviderId(provider)) throw new Error(`Unknown API provider ${JSON.stringify(provider)}; expected ${providerChoices()}.`);
  return provider;
}
