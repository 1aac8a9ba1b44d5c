import type { ChatMessage } from "../../../src/shared/messages";
import { Icon } from "../components/Icon";
import { usePanel } from "../state/panel-context";
import { useExtensionState, usePost } from "../use-extension-state";
import { Markdown } from "./Markdown";
import { Row } from "./Row";
import { toolPhase } from "./tool-labels";

const REPLY_HINT = "Reply to keep working on this task, or start a new one.";

/**
 * The task's result. The `say` carries it under "Task Completed"; the `ask` that follows only waits
 * for the person (its buttons do the asking), so it repeats no title: it shows its own text when it
 * has any, else a one-line hint (a row of zero height would upset the virtualized list).
 */
export function CompletionRow({ message }: { message: ChatMessage }) {
  if (message.type === "ask") {
    return (
      <Row message={message} tone="muted">
        {message.text ? <Markdown text={message.text} streaming={message.partial} /> : null}
        <div className="muted-text">{REPLY_HINT}</div>
      </Row>
    );
  }
  return (
    <Row message={message} icon="pass" title="Task Completed" tone="success">
      {message.text ? <Markdown text={message.text} streaming={message.partial} /> : null}
      <SeeNewChanges ts={message.ts} />
    </Row>
  );
}

/**
 * What the task changed since its previous result (the first result: since it started), as a diff
 * against the workspace now; offered only when a round changed files since then (new-changes.ts).
 */
function SeeNewChanges({ ts }: { ts: number }) {
  const post = usePost();
  const { store } = usePanel();
  const base = useExtensionState(() => store.newChangesBase(ts));
  if (base === undefined) return null;
  return (
    <button type="button" className="link-button see-new-changes" onClick={() => post({ type: "compareCheckpoint", ts: base })}>
      <Icon name="diff-multiple" /> See new changes
    </button>
  );
}

/**
 * The command the result suggests to see it (`tool: "attempt_completion"` on a command ask or say):
 * offered with Run (the ask's button, under the same approval as any command), then what became of it.
 */
export function CompletionCommandRow({ message }: { message: ChatMessage }) {
  const phase = toolPhase(message);
  const title =
    phase === "proposed" ? "Run this command to see the result?" : phase === "done" ? "Ran the command to see the result" : `Did not run the command (${phase.notRun === "rejected" ? "skipped" : phase.notRun})`;
  return (
    <Row message={message} icon="terminal" title={title} tone="success">
      <pre className="command-line">
        <span className="prompt" aria-hidden="true">$ </span>
        {message.text ?? message.tool?.content}
      </pre>
    </Row>
  );
}
