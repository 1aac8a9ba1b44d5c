import { useState } from "react";
import type { ChatMessage, HookRunInfo } from "../../../src/shared/messages";
import { Row, type RowTone } from "./Row";

const ENDED: Record<HookRunInfo["outcome"], { label: string; icon: string; tone: RowTone }> = {
  ok: { label: "ran", icon: "zap", tone: "muted" },
  cancelled: { label: "cancelled", icon: "circle-slash", tone: "warning" },
  failed: { label: "failed", icon: "warning", tone: "error" },
  timeout: { label: "timed out", icon: "watch", tone: "error" },
  stopped: { label: "was stopped", icon: "debug-stop", tone: "muted" },
};

/** One hook run: the point, the file, how it ended and how long it took; what it printed is folded away. */
export function HookRow({ message }: { message: ChatMessage }) {
  const [open, setOpen] = useState(false);
  const run = message.hook;
  if (!run) return <Row message={message} icon="zap" title="Hook" tone="muted">{message.text}</Row>;
  const ended = ENDED[run.outcome];
  const facts = [`${run.durationMs} ms`, run.exitCode !== undefined && run.exitCode !== null ? `exit ${run.exitCode}` : undefined, run.sandboxed ? "in the sandbox" : undefined, run.source === "global" ? "global" : undefined];
  return (
    <Row message={message} icon={ended.icon} title={`${run.point} hook ${ended.label}`} tone={ended.tone}>
      <div className="muted-text">
        <code>{run.path}</code> · {facts.filter(Boolean).join(" · ")}
      </div>
      {run.message && <div className={run.outcome === "cancelled" ? "error-text" : undefined}>{run.message}</div>}
      {run.problem && <div className="error-text">{capitalised(run.problem)}.</div>}
      {run.addedContext && <div className="muted-text">Added context for the model.</div>}
      {run.output && (
        <>
          <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Hide output" : "Show output"}
          </button>
          {open && <pre className="terminal-output">{run.output}</pre>}
        </>
      )}
    </Row>
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
