import { VscodeButton, VscodeCheckbox, VscodeOption, VscodeSingleSelect } from "../components/vscode-elements";
import type { ApiSettings, OpenAiApiSetting, ProviderId, WebviewSettings } from "../../../src/shared/protocol";
import type { AgentSettings, ToolCallMode } from "../../../src/shared/settings";
import { useExtensionState, usePost } from "../use-extension-state";
import { ConnectionTest } from "./ConnectionTest";
import { ProviderFields } from "./ProviderFields";
import { CheckpointsSection } from "./CheckpointsSection";
import { FocusChainSection } from "./FocusChainSection";
import { Field } from "./Field";
import { ModelPicker } from "./ModelPicker";
import { RulesSection } from "./RulesSection";
import { SandboxSection } from "./SandboxSection";
import { PROVIDER_NAMES, PROVIDERS } from "./provider-names";
import { TextSetting } from "./TextSetting";
import { checkDollars, checkThinkingBudget, checkWholeNumber } from "./validation";

/** Provider, model, key and agent settings. Each field is sent to the host when committed. */
export function SettingsView({ onDone }: { onDone: () => void }) {
  const settings = useExtensionState((state) => state.settings);
  return (
    <div className="settings-view">
      <header className="view-header">
        <h2>Settings</h2>
        <VscodeButton onClick={onDone}>Done</VscodeButton>
      </header>
      {settings ? <SettingsForm settings={settings} /> : <p className="muted-text">Waiting for the settings from the extension…</p>}
    </div>
  );
}

function SettingsForm({ settings }: { settings: WebviewSettings }) {
  const post = usePost();
  const sandbox = useExtensionState((state) => state.sandbox);
  const { api, agent } = settings;
  const updateApi = (changes: Partial<ApiSettings>) => post({ type: "updateApiSettings", settings: changes });
  const updateAgent = (changes: Partial<AgentSettings>) => post({ type: "updateAgentSettings", settings: changes });
  return (
    <>
      <section className="settings-section">
        <h3>Model provider</h3>
        <Field label="Provider">
          <VscodeSingleSelect
            aria-label="Provider"
            label="Provider"
            value={api.provider}
            onChange={(event) => updateApi({ provider: (event.target as HTMLSelectElement).value as ProviderId })}
          >
            {PROVIDERS.map((id) => (
              <VscodeOption key={id} value={id}>
                {PROVIDER_NAMES[id]}
              </VscodeOption>
            ))}
          </VscodeSingleSelect>
        </Field>
        <ProviderFields settings={settings} onChange={updateApi} />
        {api.provider === "openai" && (
          <Field label="OpenAI API" help="Automatic: the Responses API for GPT-6 and GPT-5.4+ on OpenAI itself, Chat Completions elsewhere.">
            <VscodeSingleSelect
              aria-label="OpenAI API"
              label="OpenAI API"
              value={api.openAiApi ?? "auto"}
              onChange={(event) => updateApi({ openAiApi: (event.target as HTMLSelectElement).value as OpenAiApiSetting })}
            >
              <VscodeOption value="auto">Automatic</VscodeOption>
              <VscodeOption value="chat">Chat Completions</VscodeOption>
              <VscodeOption value="responses">Responses</VscodeOption>
            </VscodeSingleSelect>
          </Field>
        )}
        <ModelPicker provider={api.provider} modelId={api.modelId} model={settings.model} models={settings.models} modelList={settings.modelList} />
        <ConnectionTest />
        <TextSetting
          label="Plan mode model"
          value={agent.planModeModelId}
          placeholder="Same as Act mode"
          help="The model Plan-mode requests go to, of the same provider (e.g. a stronger one for planning)."
          onCommit={(planModeModelId) => updateAgent({ planModeModelId })}
        />
        <TextSetting
          label="Context window override (tokens)"
          value={api.contextWindowOverride ? String(api.contextWindowOverride) : ""}
          placeholder={`Model default (now ${settings.contextWindow.toLocaleString()})`}
          help="Leave empty to use the model's own context window."
          validate={(text) => checkWholeNumber(text, 1024, true)}
          onCommit={(text) => updateApi({ contextWindowOverride: text ? Number(text) : 0 })}
        />
        <TextSetting
          label="Thinking budget (tokens)"
          value={api.thinkingBudgetTokens ? String(api.thinkingBudgetTokens) : ""}
          placeholder="0 = off"
          validate={checkThinkingBudget}
          onCommit={(text) => updateApi({ thinkingBudgetTokens: Number(text || "0") })}
        />
      </section>
      <section className="settings-section">
        <h3>Agent</h3>
        <TextSetting
          label="Mistake limit"
          value={String(agent.mistakeLimit)}
          help="Consecutive model mistakes before Tandem stops and asks you."
          validate={(text) => checkWholeNumber(text, 1, false)}
          onCommit={(text) => updateAgent({ mistakeLimit: Number(text) })}
        />
        <TextSetting
          label="Cost cap per task (USD)"
          value={agent.maxCostPerTask ? String(agent.maxCostPerTask) : ""}
          placeholder="No cap"
          help="Once a task has spent this much (as Tandem prices its requests), it stops to ask: continue once, raise the cap, or stop."
          validate={checkDollars}
          onCommit={(text) => updateAgent({ maxCostPerTask: Number(text || "0") })}
        />
        <TextSetting
          label="Request cap per task"
          value={agent.maxRequestsPerTask ? String(agent.maxRequestsPerTask) : ""}
          placeholder="No cap"
          help="Once a task has made this many requests, it stops to ask the same."
          validate={(text) => checkWholeNumber(text, 0, true)}
          onCommit={(text) => updateAgent({ maxRequestsPerTask: Number(text || "0") })}
        />
        <Field label="Tool calls" help="XML works with any model; native uses the provider's function calling.">
          <VscodeSingleSelect
            aria-label="Tool calls"
            label="Tool calls"
            value={agent.toolCallMode}
            onChange={(event) => updateAgent({ toolCallMode: (event.target as HTMLSelectElement).value as ToolCallMode })}
          >
            <VscodeOption value="xml">XML in the model's text</VscodeOption>
            <VscodeOption value="native">Native tool calls</VscodeOption>
          </VscodeSingleSelect>
        </Field>
        <Field label="Context window" help="Near the context window's end, the model summarises the conversation so far and goes on from the summary. Off: the oldest rounds are dropped instead. Type /compact as a reply to condense at any time.">
          <VscodeCheckbox data-setting="autoCondense" checked={agent.autoCondense} onChange={(event) => updateAgent({ autoCondense: (event.target as HTMLInputElement).checked })}>
            Condense automatically
          </VscodeCheckbox>
        </Field>
      </section>
      <RulesSection agent={agent} onChange={updateAgent} />
      <SandboxSection settings={agent.sandbox} status={sandbox} onChange={(next) => updateAgent({ sandbox: next })} />
      <CheckpointsSection enabled={agent.checkpoints} onChange={(checkpoints) => updateAgent({ checkpoints })} />
      <FocusChainSection agent={agent} onChange={updateAgent} />
    </>
  );
}
