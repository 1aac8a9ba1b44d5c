import type { ReactNode } from "react";

/** A labelled settings control with optional help text and a validation error. */
export function Field({ label, help, error, children }: { label: string; help?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <div className="field-label">{label}</div>
      <div className="field-control">{children}</div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {help && <div className="field-help">{help}</div>}
    </div>
  );
}
