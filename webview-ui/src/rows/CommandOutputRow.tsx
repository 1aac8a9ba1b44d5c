import type { ChatMessage } from "../../../src/shared/messages";
import { CommandEnding } from "./CommandRun";
import { Row } from "./Row";

/**
 * A command's output as it arrives; the last row of a run also says how it ended and what the
 * sandbox blocked. As an ask, the notice that the command is still running.
 */
export function CommandOutputRow({ message }: { message: ChatMessage }) {
  if (message.type === "ask") {
    return (
      <Row message={message} icon="loading" spin title="Command still running">
        <div className="muted-text">{message.text}</div>
      </Row>
    );
  }
  const run = message.command;
  const partial = Boolean(message.partial);
  const title = message.text || !run?.end ? "Output" : "Command ended";
  return (
    <Row message={message} icon={partial ? "loading" : "output"} spin={partial} title={title} tone="muted">
      {message.text ? <pre className="terminal-output">{message.text}</pre> : null}
      {run && <CommandEnding run={run} partial={partial} />}
    </Row>
  );
}
