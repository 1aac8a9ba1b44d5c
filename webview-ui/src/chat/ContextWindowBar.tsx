import { formatTokens } from "../format";

/** How full the context window is after the newest request. */
export function ContextWindowBar({ used, size }: { used: number; size: number }) {
  if (size <= 0) return null;
  const percent = Math.min(100, Math.round((used / size) * 100));
  const level = percent >= 90 ? "critical" : percent >= 70 ? "high" : "normal";
  return (
    <div className="context-window" title={`${used.toLocaleString()} of ${size.toLocaleString()} tokens in the context window`}>
      <span className="context-label">Context</span>
      <div
        className={`context-bar ${level}`}
        role="meter"
        aria-label="Context window"
        aria-valuemin={0}
        aria-valuemax={size}
        aria-valuenow={Math.min(used, size)}
      >
        <div className="context-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="context-numbers">
        {formatTokens(used)} / {formatTokens(size)}
      </span>
    </div>
  );
}
