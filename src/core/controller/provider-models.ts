/**
 * The models a provider offers, for the settings view's picker and for what a task knows of its
 * model: the catalogue's for the providers Tandem knows, the server's list (cached, read again on
 * Refresh) for OpenRouter, Ollama and LM Studio, and VS Code's own for its language models (the
 * host lists those). The picker never waits for a server: it shows what is cached, and the list
 * arrives with the next settings update.
 */
import { listModels, type ModelListing } from "../../api/model-info";
import { ModelListCache, type CachedModelList, type ModelListStore } from "../../api/model-list-cache";
import { listedModelListing, serverModelSource, type ListedModel } from "../../api/model-lists";
import type { ModelInfo } from "../../api/types";
import type { ApiSettings, ModelCatalogEntry, ModelListStatus } from "../../shared/protocol";
import { PROVIDERS, type ProviderId } from "../../shared/providers";
import type { SecretStore } from "./stores";

/** VS Code's language models, listed by the host (the core never sees the vscode API). */
export interface HostModelLister {
  list(): Promise<ListedModel[]>;
}

export interface ProviderModelsOptions {
  /** Where server lists are kept between sessions (VS Code's globalState); memory by default. */
  store?: ModelListStore;
  secrets: SecretStore;
  vscodeModels?: HostModelLister;
  /** Told when a list read in the background has arrived (the settings view updates). */
  onListChanged?: () => void;
}

interface HostList {
  models: ListedModel[];
  fetchedAt: number;
  error?: string;
}

export class ProviderModels {
  private readonly cache: ModelListCache;
  private hostList: HostList | undefined;
  /** Why the last read of a list failed, by provider and server, until one succeeds. */
  private readonly failures = new Map<string, string>();
  /** Reads in flight, by provider and server, so a burst of settings updates asks once. */
  private readonly reading = new Map<string, Promise<void>>();

  constructor(private readonly options: ProviderModelsOptions) {
    this.cache = new ModelListCache({ store: options.store ?? memoryStore() });
  }

  /** The picker's rows and the list's state, from what is known now; a missing list starts being read. */
  async picker(api: ApiSettings): Promise<{ models: ModelCatalogEntry[]; modelList?: ModelListStatus }> {
    const source = PROVIDERS[api.provider].models;
    if (source === "catalogue") return { models: listModels(api.provider).map((listing) => toEntry(listing)) };
    const list = await this.known(api);
    if (!list) this.readInBackground(api);
    const key = this.readKey(api);
    return {
      models: (list?.models ?? []).map((model) => toEntry(listedModelListing(api.provider, model), model.name)),
      modelList: {
        ...(list ? { fetchedAt: list.fetchedAt } : {}),
        ...(list?.error ? { error: list.error } : {}),
        reading: this.reading.has(key),
      },
    };
  }

  /** Reads the list again (the picker's Refresh); a failure is kept in the list's state, not thrown. */
  async refresh(api: ApiSettings): Promise<void> {
    const key = this.readKey(api);
    const running = this.reading.get(key);
    if (running) return running;
    const read = this.read(api).finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }

  /**
   * What the provider's list says of the chosen model: from a server's cached list only (a task
   * never waits for a server), from VS Code's, which is local, read now if it never was.
   */
  async listedInfo(api: ApiSettings): Promise<Partial<ModelInfo> | undefined> {
    const id = api.modelId?.trim();
    if (!id || PROVIDERS[api.provider].models === "catalogue") return undefined;
    if (api.provider === "vscode-lm" && !this.hostList) await this.refresh(api);
    return (await this.known(api))?.models.find((model) => model.id === id)?.info;
  }

  private async known(api: ApiSettings): Promise<{ models: ListedModel[]; fetchedAt: number; error?: string } | undefined> {
    if (api.provider === "vscode-lm") return this.hostList;
    const failure = this.failures.get(this.readKey(api));
    try {
      const cached = await this.cache.peek(api.provider, api.baseUrl);
      if (!cached) return failure === undefined ? undefined : { models: [], fetchedAt: 0, error: failure };
      return { models: cached.models, fetchedAt: cached.fetchedAt, ...(failure ? { error: failure } : {}) };
    } catch (error) {
      // A base URL the list cannot be read from (the cache key is its server): say so in the picker.
      return { models: [], fetchedAt: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private readInBackground(api: ApiSettings): void {
    const key = this.readKey(api);
    if (this.reading.has(key)) return;
    void this.refresh(api).then(() => this.options.onListChanged?.());
  }

  private async read(api: ApiSettings): Promise<void> {
    if (api.provider === "vscode-lm") {
      const lister = this.options.vscodeModels;
      try {
        if (!lister) throw new Error("VS Code's language models are only available inside VS Code.");
        this.hostList = { models: await lister.list(), fetchedAt: Date.now() };
      } catch (error) {
        this.hostList = { models: this.hostList?.models ?? [], fetchedAt: this.hostList?.fetchedAt ?? 0, error: error instanceof Error ? error.message : String(error) };
      }
      return;
    }
    if (!serverModelSource(api.provider)) return;
    const apiKey = PROVIDERS[api.provider].fields.includes("apiKey") ? await this.options.secrets.getApiKey(api.provider) : undefined;
    const key = this.readKey(api);
    try {
      const list: CachedModelList = await this.cache.refresh(api.provider, { ...(api.baseUrl?.trim() ? { baseUrl: api.baseUrl.trim() } : {}), ...(apiKey ? { apiKey } : {}) });
      if (list.error) this.failures.set(key, list.error.message);
      else this.failures.delete(key);
    } catch (error) {
      // No list was ever read from this server: the picker says why.
      this.failures.set(key, error instanceof Error ? error.message : String(error));
    }
  }

  private readKey(api: ApiSettings): string {
    return `${api.provider} ${api.baseUrl?.trim() ?? ""}`;
  }
}

function toEntry(listing: ModelListing, name?: string): ModelCatalogEntry {
  return {
    provider: listing.provider as ProviderId,
    id: listing.id,
    ...(name && name !== listing.id ? { name } : {}),
    contextWindow: listing.contextWindow,
    maxOutputTokens: listing.maxOutputTokens,
    inputPrice: listing.inputPrice,
    outputPrice: listing.outputPrice,
    cacheWritePrice: listing.cacheWritePrice,
    cacheReadPrice: listing.cacheReadPrice,
  };
}

function memoryStore(): ModelListStore {
  let record: unknown;
  return { get: () => record, set: (next) => void (record = next) };
}
