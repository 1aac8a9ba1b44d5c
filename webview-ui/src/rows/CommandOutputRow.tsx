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
  const title = outputTitle(Boolean(message.text), run);
  return (
    <Row message={message} icon={partial ? "loading" : "output"} spin={partial} title={title} tone="muted">
      {message.text ? <pre className="terminal-output">{message.text}</pre> : null}
      {run && <CommandEnding run={run} partial={partial} />}
    </Row>
  );
}

/**
 * A run gone on in the background names its command, since other rows come between it and its
 * output: in short on each output row (one a second while it prints), in full where it ended.
 */
function outputTitle(hasText: boolean, run: ChatMessage["command"]): string {
  const background = run?.background;
  if (hasText || !run?.end) return background ? `Output of ${clipped(background)}, in the background` : "Output";
  return background ? `Background command ended: ${background}` : "Command ended";
}

function clipped(command: string): string {
  const line = command.split("\n")[0] ?? "";
  return line.length > 32 || line !== command ? `${line.slice(0, 30).trimEnd()}…` : line;
}
