import { useEffect, useState } from "react";

/** A server's per-call timeout in seconds, saved on Enter or when the field loses focus, if it changed and is valid. */
export function TimeoutField({ seconds, onSave }: { seconds: number; onSave: (seconds: number) => void }) {
  const [text, setText] = useState(String(seconds));
  // The host's value wins once it answers (saved, or another window changed the file).
  useEffect(() => setText(String(seconds)), [seconds]);
  const value = Number(text);
  const valid = text.trim() !== "" && Number.isInteger(value) && value > 0;
  const save = () => {
    if (valid && value !== seconds) onSave(value);
    else if (!valid) setText(String(seconds));
  };
  return (
    <label className="mcp-timeout">
      Timeout (s)
      <input
        type="number"
        min={1}
        step={1}
        value={text}
        aria-label="Timeout in seconds"
        aria-invalid={!valid}
        onChange={(event) => setText(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === "Enter") save();
        }}
      />
    </label>
  );
}
