import type { AgentSettings } from "../../../src/shared/settings";
import { FOCUS_CHAIN_LIMITS } from "../../../src/shared/settings";
import { VscodeCheckbox } from "../components/vscode-elements";
import { Field } from "./Field";
import { TextSetting } from "./TextSetting";
import { checkWholeNumber } from "./validation";

const { max } = FOCUS_CHAIN_LIMITS.reminderInterval;

/** The focus chain on or off (tandem.focusChain.enabled) and how often the model is reminded of it. */
export function FocusChainSection({ agent, onChange }: { agent: AgentSettings; onChange: (changes: Partial<AgentSettings>) => void }) {
  return (
    <section className="settings-section" aria-labelledby="focus-chain-heading">
      <h3 id="focus-chain-heading">Focus chain</h3>
      <Field label="Checklist" help="The model keeps a checklist of the task's steps, shown above the chat; you can tick, edit, add and remove items.">
        <VscodeCheckbox data-setting="focusChain" checked={agent.focusChain} onChange={(event) => onChange({ focusChain: (event.target as HTMLInputElement).checked })}>
          Keep a checklist
        </VscodeCheckbox>
      </Field>
      <TextSetting
        label="Reminder interval (requests)"
        value={String(agent.focusChainReminderInterval)}
        help="After this many requests without a checklist update, the model is reminded to update it."
        validate={(text) => checkWholeNumber(text, FOCUS_CHAIN_LIMITS.reminderInterval.min, false) ?? (Number(text) > max ? `Enter ${max} or less.` : undefined)}
        onCommit={(text) => onChange({ focusChainReminderInterval: Number(text) })}
      />
    </section>
  );
}
