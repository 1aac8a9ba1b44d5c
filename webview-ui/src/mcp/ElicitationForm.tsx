import { useState } from "react";
import type { McpElicitation, McpElicitationField, McpElicitationValue } from "../../../src/shared/mcp";
import { VscodeButton } from "../components/vscode-elements";
import { useExtensionState, usePost } from "../use-extension-state";

/** Every open request of a server for the person's input, above whatever view is shown. */
export function Elicitations() {
  const open = useExtensionState((state) => state.mcp.elicitations);
  if (open.length === 0) return null;
  return (
    <div className="mcp-elicitations">
      {open.map((e) => (
        <ElicitationForm key={e.id} elicitation={e} />
      ))}
    </div>
  );
}

type Values = Record<string, McpElicitationValue | undefined>;

function initialValues(fields: readonly McpElicitationField[]): Values {
  const values: Values = {};
  for (const f of fields) {
    if (f.kind === "boolean") values[f.name] = f.default ?? false;
    else if (f.kind !== "unsupported" && f.default !== undefined) values[f.name] = f.default;
  }
  return values;
}

/**
 * One server's form: its message and flat fields (text, number, yes/no, a choice). Accept sends the
 * values; the host checks them against the request and keeps the form open with a notice if one
 * does not fit. Decline and Cancel send nothing of what was typed.
 */
function ElicitationForm({ elicitation }: { elicitation: McpElicitation }) {
  const post = usePost();
  const [values, setValues] = useState<Values>(() => initialValues(elicitation.fields));
  const set = (name: string, value: McpElicitationValue | undefined) => setValues((v) => ({ ...v, [name]: value }));
  const answer = (action: "accept" | "decline" | "cancel") => {
    const content = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, McpElicitationValue] => entry[1] !== undefined));
    post({ type: "mcpElicitationAnswer", answer: { id: elicitation.id, action, ...(action === "accept" ? { content } : {}) } });
  };
  return (
    <form
      className="mcp-elicitation"
      aria-label={`${elicitation.server} asks for input`}
      // No submission: the buttons answer (Enter in a field must not navigate the webview).
      onSubmit={(event) => event.preventDefault()}
    >
      <div className="mcp-elicitation-head">
        MCP server <strong>{elicitation.server}</strong> asks:
      </div>
      <p className="mcp-elicitation-message">{elicitation.message}</p>
      {elicitation.fields.map((f) => (
        <Field key={f.name} field={f} value={values[f.name]} onChange={(v) => set(f.name, v)} />
      ))}
      <div className="mcp-elicitation-actions">
        <VscodeButton onClick={() => answer("accept")}>
          Accept
        </VscodeButton>
        <VscodeButton secondary onClick={() => answer("decline")}>
          Decline
        </VscodeButton>
        <VscodeButton secondary onClick={() => answer("cancel")}>
          Cancel
        </VscodeButton>
      </div>
    </form>
  );
}

function Field({ field: f, value, onChange }: { field: McpElicitationField; value: McpElicitationValue | undefined; onChange: (v: McpElicitationValue | undefined) => void }) {
  const label = `${f.title}${f.required ? " *" : ""}`;
  const help = f.description && <span className="field-help">{f.description}</span>;
  switch (f.kind) {
    case "boolean":
      return (
        <label className="mcp-field mcp-field-boolean">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {label}
          {help}
        </label>
      );
    case "enum":
      return (
        <label className="mcp-field">
          {label}
          <select value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value || undefined)}>
            <option value="">—</option>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {help}
        </label>
      );
    case "number":
      return (
        <label className="mcp-field">
          {label}
          <input
            type="number"
            step={f.integer ? 1 : "any"}
            min={f.minimum}
            max={f.maximum}
            value={typeof value === "number" ? value : ""}
            onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
          />
          {help}
        </label>
      );
    case "string":
      return (
        <label className="mcp-field">
          {label}
          <input
            type={f.format === "email" ? "email" : f.format === "date" ? "date" : f.format === "uri" ? "url" : "text"}
            value={typeof value === "string" ? value : ""}
            onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
          />
          {help}
        </label>
      );
    case "unsupported":
      return (
        <div className="mcp-field mcp-field-unsupported">
          {label}: <span className="muted-text">{f.why}; {f.required ? "; required, so only Decline or Cancel can answer" : "; left out"}.</span>
        </div>
      );
  }
}
