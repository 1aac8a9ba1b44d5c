import type { ChatMessage } from "../../../src/shared/messages";
import { VscodeCollapsible } from "../components/vscode-elements";
import { Row } from "./Row";

/**
 * The conversation was condensed: how much smaller it became, and the summary the model now
 * goes on from, folded away until the person opens it.
 */
export function CondensedRow({ message }: { message: ChatMessage }) {
  const figures = message.condense;
  const sizes = figures ? `: ${figures.tokensBefore.toLocaleString("en-US")} → ${figures.tokensAfter.toLocaleString("en-US")} tokens` : "";
  const title = `Context condensed${sizes}`;
  return (
    <Row message={message} icon="fold" title={title} tone="muted">
      {figures?.trigger === "compact" ? <div className="muted-text">Condensed on request (/compact).</div> : null}
      <VscodeCollapsible className="condensed-summary" heading="Summary" open={false}>
        <div className="condensed-summary-text">{message.text}</div>
      </VscodeCollapsible>
    </Row>
  );
}
