import { VscodeTextfield } from "../components/vscode-elements";
import { useEffect, useState } from "react";
import { Field } from "./Field";

interface TextSettingProps {
  label: string;
  value: string;
  /** Called with the trimmed text when the person commits (Enter or leaving the field) a valid change. */
  onCommit: (text: string) => void;
  /** Returns a message for the person when the text is not acceptable. */
  validate?: (text: string) => string | undefined;
  placeholder?: string;
  help?: string;
}

/** A text field that sends its value when committed, not on every keystroke. */
export function TextSetting({ label, value, onCommit, validate, placeholder, help }: TextSettingProps) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => setDraft(value), [value]);
  const commit = () => {
    const text = draft.trim();
    const problem = validate?.(text);
    setError(problem);
    if (!problem && text !== value) onCommit(text);
  };
  return (
    <Field label={label} help={help} error={error}>
      <VscodeTextfield
        aria-label={label}
        label={label}
        value={draft}
        placeholder={placeholder}
        invalid={error !== undefined}
        onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
        onChange={commit}
      />
    </Field>
  );
}
