import { VscodeOption, VscodeSingleSelect } from "../components/vscode-elements";
import type { ModelCatalogEntry, ProviderId } from "../../../src/shared/protocol";
import { formatPrice, formatTokens } from "../format";
import { usePost } from "../use-extension-state";
import { Field } from "./Field";
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
  models: readonly ModelCatalogEntry[];
}

/** The known models of the provider to pick from, and a field for any other model id. */
export function ModelPicker({ provider, modelId, models }: ModelPickerProps) {
  const post = usePost();
  const known = models.filter((model) => model.provider === provider);
  const current = known.find((model) => model.id === modelId);
  const choose = (id: string) => post({ type: "updateApiSettings", settings: { modelId: id } });
  return (
    <>
      <Field label="Known models" help={current ? describeModel(current) : "Not a known model: prices and context window come from your overrides."}>
        <VscodeSingleSelect
          aria-label="Known models"
          value={current?.id ?? ""}
          onChange={(event) => {
            const id = (event.target as HTMLSelectElement).value;
            if (id) choose(id);
          }}
        >
          <VscodeOption value="">Other model…</VscodeOption>
          {known.map((model) => (
            <VscodeOption key={model.id} value={model.id} description={describeModel(model)}>
              {model.id}
            </VscodeOption>
          ))}
        </VscodeSingleSelect>
      </Field>
      <TextSetting label="Model ID" value={modelId ?? ""} placeholder="e.g. claude-sonnet-4-5" onCommit={choose} />
    </>
  );
}
