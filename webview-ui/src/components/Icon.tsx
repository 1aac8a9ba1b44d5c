/** A codicon from the bundled codicon font. */
export function Icon({ name, spin = false, label }: { name: string; spin?: boolean; label?: string }) {
  const className = `codicon codicon-${name}${spin ? " codicon-modifier-spin" : ""}`;
  return label ? <span className={className} role="img" aria-label={label} /> : <span className={className} aria-hidden="true" />;
}
