import { VscodeButton, VscodeOption, VscodeSingleSelect } from "../components/vscode-elements";
import type { ModelCatalogEntry, ModelInUse, ModelListStatus, ProviderId } from "../../../src/shared/protocol";
import { formatPrice, formatTokens } from "../format";
import { usePost } from "../use-extension-state";
import { Field } from "./Field";
import { PROVIDER_NAMES } from "./provider-names";
import { TextSetting } from "./TextSetting";

export function describeModel(model: ModelCatalogEntry): string {
  return (
    `${formatTokens(model.contextWindow)} context · in ${formatPrice(model.inputPrice)} · out ${formatPrice(model.outputPrice)}` +
    ` · cache write ${formatPrice(model.cacheWritePrice)} · read ${formatPrice(model.cacheReadPrice)} per M tokens`
  );
}

interface ModelPickerProps {
  provider: ProviderId;
  modelId: string | undefined;
  /** The model tasks use (the host resolves the default): what the picker shows as chosen. */
  model: ModelInUse;
  models: readonly ModelCatalogEntry[];
  /** Set when the provider's server (or VS Code) lists its models. */
  modelList?: ModelListStatus;
}

/** The known models of the provider to pick from, and a field for any other model id. */
export function ModelPicker({ provider, modelId, model, models, modelList }: ModelPickerProps) {
  const post = usePost();
  const known = models.filter((entry) => entry.provider === provider);
  const current = known.find((entry) => entry.id === model.catalogueId);
  const choose = (id: string) => post({ type: "updateApiSettings", settings: { modelId: id } });
  return (
    <>
      {modelList && <ModelListState provider={provider} status={modelList} count={known.length} />}
      <Field label="Known models" help={pickerHelp(provider, model, current)}>
        <VscodeSingleSelect
          aria-label="Known models"
          label="Known models"
          value={current?.id ?? ""}
          onChange={(event) => {
            const id = (event.target as HTMLSelectElement).value;
            if (id) choose(id);
          }}
        >
          <VscodeOption value="">Other model…</VscodeOption>
          {known.map((entry) => (
            <VscodeOption key={entry.id} value={entry.id} description={describeModel(entry)}>
              {entry.name ? `${entry.name} (${entry.id})` : entry.id}
            </VscodeOption>
          ))}
        </VscodeSingleSelect>
      </Field>
      <TextSetting label="Model ID" value={modelId ?? ""} placeholder={model.isDefault ? `${model.id} (the default)` : "Empty: the provider's default"} onCommit={choose} />
    </>
  );
}

/** What the chosen model is: the default or not, priced as which entry, or unknown. */
export function pickerHelp(provider: ProviderId, model: ModelInUse, current: ModelCatalogEntry | undefined): string {
  const which = model.isDefault ? `${model.id} is ${PROVIDER_NAMES[provider]}'s default model. ` : "";
  if (!model.id) return "Choose a model: this provider has no default.";
  if (!current) return `${which}Not a known model: prices and context window come from your overrides.`;
  const alias = current.id === model.id ? "" : `${model.id} is priced as ${current.id}. `;
  return `${which}${alias}${describeModel(current)}`;
}

/** Where the list came from, how old it is, why it could not be read; and Refresh. */
function ModelListState({ provider, status, count }: { provider: ProviderId; status: ModelListStatus; count: number }) {
  const post = usePost();
  const from = provider === "vscode-lm" ? "VS Code" : `the ${PROVIDER_NAMES[provider]} server`;
  const said = status.reading
    ? `Reading the models from ${from}…`
    : status.fetchedAt
      ? `${count} model${count === 1 ? "" : "s"} from ${from}, read at ${new Date(status.fetchedAt).toLocaleTimeString()}.`
      : `No model list from ${from} yet.`;
  return (
    <Field label="Model list" error={status.error} help={said}>
      <div className="inline-controls">
        <VscodeButton secondary disabled={status.reading} onClick={() => post({ type: "refreshModels" })}>
          Refresh models
        </VscodeButton>
      </div>
    </Field>
  );
}
