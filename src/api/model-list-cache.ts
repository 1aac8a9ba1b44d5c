/**
 * The model lists read from servers (model-lists.ts), kept per provider and base URL so the
 * picker opens at once and a task started offline still knows its model's window and prices.
 * A list younger than `maxAgeMs` is served without asking; `refresh` asks anyway. Callers asking
 * for the same list at once share one request, and a failed request keeps the last good list
 * (reported with the error). The store is handed in: VS Code's globalState, the CLI's JSON file.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isProviderId, PROVIDERS, type ProviderId } from "../shared/providers.js";
import { checkListedModels, fetchModelList, modelListServer, ModelListError, type FetchModelListOptions, type ListedModel } from "./model-lists.js";

/** Where the lists are kept: one JSON-safe record, read once and written whole. */
export interface ModelListStore {
  /** The record last set, or undefined; whatever else it holds is ignored. */
  get(): unknown | PromiseLike<unknown>;
  set(record: ModelListRecord): void | PromiseLike<void>;
}

export interface StoredModelList {
  provider: ProviderId;
  /** The server as model-lists.ts names it (no credentials, no trailing /v1). */
  server: string;
  /** Epoch ms. */
  fetchedAt: number;
  models: ListedModel[];
}

export interface ModelListRecord {
  version: 1;
  /** By `modelListCacheKey`. */
  lists: Record<string, StoredModelList>;
}

export interface CachedModelList {
  models: ListedModel[];
  /** When the server sent this list (epoch ms). */
  fetchedAt: number;
  /** Served from the cache, not just read from the server. */
  fromCache: boolean;
  /** Reading a new list failed: `models` are the last good list, this is why it is not newer. */
  error?: ModelListError;
}

export interface ModelListCacheOptions {
  store: ModelListStore;
  /** How long a list is served without asking the server again (default 1 hour). */
  maxAgeMs?: number;
  /** Lists kept at most, the most recently read first (default 20): base URLs come and go. */
  maxLists?: number;
  now?: () => number;
  /** Defaults to model-lists.ts's fetchModelList. */
  fetchModelList?: typeof fetchModelList;
}

export const DEFAULT_MODEL_LIST_MAX_AGE_MS = 60 * 60 * 1000;
const DEFAULT_MAX_LISTS = 20;

export type GetModelListOptions = FetchModelListOptions & {
  /** Ask the server even when the cached list is fresh. */
  refresh?: boolean;
};

/** The key a list is kept under: the provider and its server, never a key. Throws a `bad_url` ModelListError. */
export function modelListCacheKey(provider: ProviderId, baseUrl?: string): string {
  return `${provider} ${modelListServer(provider, baseUrl).shown}`;
}

export class ModelListCache {
  private lists: Record<string, StoredModelList> | undefined;
  private loading: Promise<Record<string, StoredModelList>> | undefined;
  private readonly inFlight = new Map<string, Promise<StoredModelList>>();
  private saving: Promise<void> = Promise.resolve();
  private readonly maxAgeMs: number;
  private readonly maxLists: number;
  private readonly now: () => number;
  private readonly fetchList: typeof fetchModelList;

  constructor(private readonly options: ModelListCacheOptions) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MODEL_LIST_MAX_AGE_MS;
    this.maxLists = options.maxLists ?? DEFAULT_MAX_LISTS;
    this.now = options.now ?? Date.now;
    this.fetchList = options.fetchModelList ?? fetchModelList;
  }

  /**
   * The provider's list: the cached one while fresh, else the server's. When the server fails,
   * the last good list with the error; with no list to fall back on, the error is thrown.
   */
  async get(provider: ProviderId, options: GetModelListOptions = {}): Promise<CachedModelList> {
    const key = modelListCacheKey(provider, options.baseUrl);
    const lists = await this.load();
    const cached = lists[key];
    if (!options.refresh && cached && this.isFresh(cached)) return { models: cached.models, fetchedAt: cached.fetchedAt, fromCache: true };
    try {
      const list = await whileListening(this.fetchShared(key, provider, options), options.signal, provider);
      return { models: list.models, fetchedAt: list.fetchedAt, fromCache: false };
    } catch (error) {
      const failure = error instanceof ModelListError ? error : new ModelListError("bad_response", String(error));
      // This caller gave up: it learns that, not a list it no longer waits for.
      if (failure.kind === "aborted") throw failure;
      const lastGood = (await this.load())[key];
      if (!lastGood) throw failure;
      return { models: lastGood.models, fetchedAt: lastGood.fetchedAt, fromCache: true, error: failure };
    }
  }

  /** Asks the server whatever the cache holds (the picker's refresh button). */
  refresh(provider: ProviderId, options: FetchModelListOptions = {}): Promise<CachedModelList> {
    return this.get(provider, { ...options, refresh: true });
  }

  /** The cached list, fresh or not, without asking the server; undefined when there is none. */
  async peek(provider: ProviderId, baseUrl?: string): Promise<CachedModelList | undefined> {
    const cached = (await this.load())[modelListCacheKey(provider, baseUrl)];
    return cached && { models: cached.models, fetchedAt: cached.fetchedAt, fromCache: true };
  }

  /** Resolves once every list read so far is in the store. */
  flush(): Promise<void> {
    return this.saving;
  }

  private isFresh(list: StoredModelList): boolean {
    const age = this.now() - list.fetchedAt;
    // A list from the future (the clock went back) is not trusted to be fresh.
    return age >= 0 && age < this.maxAgeMs;
  }

  /**
   * One request per key at a time, whoever asks. It runs without any caller's signal (each
   * caller stops waiting on its own), so one caller cancelling does not fail the others.
   */
  private fetchShared(key: string, provider: ProviderId, options: FetchModelListOptions): Promise<StoredModelList> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const { signal: _signal, ...rest } = options;
    const request = this.fetchList(provider, rest)
      .then((models) => this.remember(key, { provider, server: modelListServer(provider, options.baseUrl).shown, fetchedAt: this.now(), models }))
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }

  private async remember(key: string, list: StoredModelList): Promise<StoredModelList> {
    const lists = { ...(await this.load()), [key]: list };
    const kept = Object.entries(lists)
      .sort(([, a], [, b]) => b.fetchedAt - a.fetchedAt)
      .slice(0, this.maxLists);
    this.lists = Object.fromEntries(kept);
    const record: ModelListRecord = { version: 1, lists: this.lists };
    // Writes go one after another, the last one holding every list; a store that fails only
    // loses the lists for the next session: this one has them in memory.
    this.saving = this.saving.then(() => this.options.store.set(record)).then(
      () => undefined,
      () => undefined,
    );
    return list;
  }

  private async load(): Promise<Record<string, StoredModelList>> {
    if (this.lists) return this.lists;
    this.loading ??= Promise.resolve()
      .then(() => this.options.store.get())
      .then(readRecord, () => ({}))
      .then((lists) => (this.lists ??= lists));
    return this.loading;
  }
}

/** The promise, or the caller's abort as a ModelListError, whichever comes first. */
function whileListening<T>(promise: Promise<T>, signal: AbortSignal | undefined, provider: ProviderId): Promise<T> {
  if (!signal) return promise;
  const aborted = (): ModelListError => new ModelListError("aborted", `Reading the ${PROVIDERS[provider].name} model list was cancelled.`);
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(aborted());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The well-formed lists of a stored record; a record of another version or shape is none. */
function readRecord(value: unknown): Record<string, StoredModelList> {
  if (typeof value !== "object" || value === null) return {};
  const { version, lists } = value as Partial<ModelListRecord>;
  if (version !== 1 || typeof lists !== "object" || lists === null || Array.isArray(lists)) return {};
  const out: Record<string, StoredModelList> = {};
  for (const [key, stored] of Object.entries(lists as Record<string, unknown>)) {
    if (typeof stored !== "object" || stored === null) continue;
    const { provider, server, fetchedAt, models } = stored as Partial<Record<keyof StoredModelList, unknown>>;
    const checked = checkListedModels(models);
    if (!isProviderId(provider) || typeof server !== "string" || typeof fetchedAt !== "number" || !Number.isFinite(fetchedAt) || !checked?.length) continue;
    out[key] = { provider, server, fetchedAt, models: checked };
  }
  return out;
}

/**
 * A store in a JSON file (the CLI's). A missing or unreadable file is an empty cache; writes go
 * to a temporary file renamed over the old one, so a crash mid-write leaves the old file whole.
 */
export function jsonFileModelListStore(path: string): ModelListStore {
  return {
    async get() {
      try {
        return JSON.parse(await readFile(path, "utf8")) as unknown;
      } catch {
        return undefined;
      }
    },
    async set(record) {
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(record)}\n`, "utf8");
      await rename(temp, path);
    },
  };
}
