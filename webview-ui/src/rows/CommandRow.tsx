import type { ChatMessage } from "../../../src/shared/messages";
import { Confinement } from "./CommandRun";
import { Row } from "./Row";
import { AskReason } from "./ToolRow";
import { toolLabel, toolPhase } from "./tool-labels";

/** A shell command: asked for, then run (or not, and why). */
export function CommandRow({ message }: { message: ChatMessage }) {
  const { icon, title } = toolLabel({ tool: "execute_command" }, toolPhase(message));
  return (
    <Row message={message} icon={icon} title={title}>
      <pre className="command-line">
        <span className="prompt" aria-hidden="true">$ </span>
        {message.text}
      </pre>
      <Confinement confinement={message.tool?.confinement} />
      <AskReason tool={message.tool} />
    </Row>
  );
}
