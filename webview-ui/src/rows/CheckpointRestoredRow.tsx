import type { ChatMessage } from "../../../src/shared/messages";
import { formatCost, formatTokens } from "../format";
import { Row } from "./Row";

/**
 * "Restore task" took the chat back to the checkpoint above. The requests it removed were billed,
 * so the task's totals keep them: the row says how many and what they cost, which is why the
 * header's totals are more than the rows above add up to.
 */
export function CheckpointRestoredRow({ message }: { message: ChatMessage }) {
  const spent = message.removedRequests;
  const requests = spent ? (spent.requests === 1 ? "The request" : `The ${spent.requests} requests`) : "The requests";
  return (
    <Row message={message} icon="history" title="The task was taken back to this checkpoint" tone="muted">
      {spent && (
        <div className="muted-text">
          {requests} made after it stay in the task&apos;s totals: {formatCost(spent.cost)}, ↑ {formatTokens(spent.tokensIn)} ↓ {formatTokens(spent.tokensOut)} tokens.
        </div>
      )}
    </Row>
  );
}
