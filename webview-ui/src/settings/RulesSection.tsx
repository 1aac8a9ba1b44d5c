import { useEffect, useState } from "react";
import type { AgentSettings } from "../../../src/shared/settings";
import { VscodeCheckbox, VscodeTextarea } from "../components/vscode-elements";
import { useExtensionState, usePost } from "../use-extension-state";
import { Field } from "./Field";

/**
 * The person's rules: the custom instructions (tandem.customInstructions) and the rules files the
 * host found, each with its switch (tandem.rules.toggles). The host reads the files each time the
 * settings open and after a switch; what it warned of (a file ignored, cut by the size limit) is
 * listed under them.
 */
export function RulesSection({ agent, onChange }: { agent: AgentSettings; onChange: (changes: Partial<AgentSettings>) => void }) {
  const post = usePost();
  const rules = useExtensionState((state) => state.rules);
  const [draft, setDraft] = useState(agent.customInstructions);
  useEffect(() => setDraft(agent.customInstructions), [agent.customInstructions]);
  useEffect(() => {
    post({ type: "rules" });
  }, [post]);
  const toggle = (name: string, enabled: boolean) => onChange({ ruleToggles: { ...agent.ruleToggles, [name]: enabled } });
  return (
    <section className="settings-section" aria-labelledby="rules-heading">
      <h3 id="rules-heading">Rules</h3>
      <Field label="Custom instructions" help="Added to every request, after the rules files.">
        <VscodeTextarea
          aria-label="Custom instructions"
          label="Custom instructions"
          value={draft}
          rows={4}
          onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
          onChange={() => draft !== agent.customInstructions && onChange({ customInstructions: draft })}
        />
      </Field>
      <Field
        label="Rules files"
        help=".tandemrules, .clinerules, AGENTS.md, .cursorrules, .cursor/rules/ and .windsurfrules in the workspace, and the files in Tandem's global rules folder. Read again before every request."
      >
        {rules === undefined ? (
          <p className="muted-text">Looking for rules files…</p>
        ) : rules.files.length === 0 ? (
          <p className="muted-text">No rules files found.</p>
        ) : (
          <ul className="rules-list" aria-label="Rules files">
            {rules.files.map((file) => (
              <li key={file.name}>
                <VscodeCheckbox data-rule={file.name} checked={file.enabled} onChange={(event) => toggle(file.name, (event.target as HTMLInputElement).checked)}>
                  {file.name}
                  {file.cut ? " (left out: over the size limit)" : ""}
                </VscodeCheckbox>
              </li>
            ))}
          </ul>
        )}
        {rules && rules.warnings.length > 0 && (
          <ul className="rules-warnings" role="status" aria-label="Rules warnings">
            {rules.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        )}
      </Field>
    </section>
  );
}
