import { VscodeButton } from "../components/vscode-elements";
import { useState } from "react";
import type { ProviderId } from "../../../src/shared/protocol";
import { usePost } from "../use-extension-state";
import { Field } from "./Field";
import { PROVIDER_NAMES } from "./provider-names";

/**
 * Write-only: the key goes to the host's secret storage and the field is emptied. The host never
 * sends a key back, so all this field can show is whether one is stored.
 */
export function ApiKeyField({ provider, hasKey }: { provider: ProviderId; hasKey: boolean }) {
  const post = usePost();
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const save = () => {
    const apiKey = key.trim();
    if (!apiKey) {
      setError("Enter a key first.");
      return;
    }
    post({ type: "setApiKey", provider, apiKey });
    setKey("");
    setError(undefined);
  };
  const name = PROVIDER_NAMES[provider];
  return (
    <Field
      label={`${name} API key`}
      error={error}
      help={hasKey ? `A key is stored for ${name}. Enter a new one to replace it.` : `No key is stored for ${name}.`}
    >
      <div className="inline-controls">
        {/* A native password input, not vscode-textfield: that element is form-associated and
            reports its value through ElementInternals, which Chromium's session restore saves
            to disk. Native password fields are never saved there. */}
        <input
          className="api-key-input"
          type="password"
          aria-label="API key"
          autoComplete="off"
          spellCheck={false}
          placeholder={hasKey ? "A key is stored" : "Paste your API key"}
          value={key}
          onChange={(event) => setKey(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") save();
          }}
        />
        <VscodeButton onClick={save}>Save key</VscodeButton>
      </div>
    </Field>
  );
}
