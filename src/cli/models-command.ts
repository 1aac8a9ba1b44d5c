/**
 * `tandem models [--provider X] [--refresh] [--json]`: the models a provider offers, as the
 * settings view's picker lists them: its server's list for OpenRouter, Ollama and LM Studio (kept
 * for an hour in the data folder, read again with --refresh), the catalogue for the others. And
 * the lookup a task makes before it starts: what the list says of its model (window, prices).
 */
import { join } from "node:path";
import type { ApiConfiguration } from "../api/config";
import { listModels, type ModelListing } from "../api/model-info";
import { jsonFileModelListStore, ModelListCache } from "../api/model-list-cache";
import { listedModelListing, serverModelSource } from "../api/model-lists";
import type { ModelInfo } from "../api/types";
import { PROVIDERS } from "../shared/providers";

/** Where the lists read from servers are kept: beside the global MCP settings, never with a key in it. */
export function modelListCache(dataFolder: string): ModelListCache {
  return new ModelListCache({ store: jsonFileModelListStore(join(dataFolder, "model-lists.json")) });
}

export interface ModelsCommandDeps {
  readonly cache: ModelListCache;
  print(text: string): void;
  /** Said on stderr: where the list came from, and a failure that left an older list. */
  note(text: string): void;
}

export async function runModelsCommand(api: ApiConfiguration, options: { refresh: boolean; json: boolean }, deps: ModelsCommandDeps): Promise<void> {
  const spec = PROVIDERS[api.provider];
  let rows: (ModelListing & { name?: string })[];
  if (serverModelSource(api.provider)) {
    const list = await deps.cache.get(api.provider, { ...listOptions(api), refresh: options.refresh });
    // The file is written in the background: the process must not exit before it is.
    await deps.cache.flush();
    if (list.error) deps.note(`tandem: ${list.error.message} Showing the list read at ${new Date(list.fetchedAt).toLocaleString()}.`);
    else deps.note(`tandem: ${list.models.length} models from ${spec.name}${list.fromCache ? `, read at ${new Date(list.fetchedAt).toLocaleString()} (--refresh reads them again)` : ""}.`);
    rows = list.models.map((model) => ({ ...listedModelListing(api.provider, model), ...(model.name ? { name: model.name } : {}) }));
  } else {
    deps.note(`tandem: the models Tandem knows for ${spec.name}; any other id the provider serves works with --model.`);
    rows = listModels(api.provider);
  }
  if (options.json) {
    for (const row of rows) deps.print(JSON.stringify(row));
    return;
  }
  for (const row of rows) deps.print(formatRow(row));
}

/** What the provider's list says of the task's model, from the cache (read when missing or old); undefined when it cannot say. */
export async function listedModelInfo(api: ApiConfiguration, cache: ModelListCache, note: (text: string) => void): Promise<Partial<ModelInfo> | undefined> {
  if (!serverModelSource(api.provider) || !api.modelId) return undefined;
  try {
    const list = await cache.get(api.provider, listOptions(api));
    await cache.flush();
    const found = list.models.find((model) => model.id === api.modelId);
    if (!found) note(`tandem: ${PROVIDERS[api.provider].name} does not list the model "${api.modelId}" (tandem models --provider ${api.provider} lists those it has); going on with conservative defaults.`);
    return found?.info;
  } catch (error) {
    note(`tandem: the model list could not be read (${error instanceof Error ? error.message : String(error)}); going on with conservative defaults for the context window.`);
    return undefined;
  }
}

function listOptions(api: ApiConfiguration): { baseUrl?: string; apiKey?: string } {
  return { ...(api.baseUrl ? { baseUrl: api.baseUrl } : {}), ...(api.apiKey && PROVIDERS[api.provider].fields.includes("apiKey") ? { apiKey: api.apiKey } : {}) };
}

function formatRow(row: ModelListing & { name?: string }): string {
  const window = `${Math.round(row.contextWindow / 1000).toLocaleString("en-US")}K`;
  const prices = row.inputPrice || row.outputPrice ? `  $${row.inputPrice}/$${row.outputPrice} per M in/out` : "";
  const status = row.status === "active" ? "" : `  (${row.status}${row.retiresOn ? `, retires ${row.retiresOn}` : ""})`;
  const name = row.name ? `  ${row.name}` : "";
  return `${row.id}  ${window} context${prices}${status}${name}`;
}
