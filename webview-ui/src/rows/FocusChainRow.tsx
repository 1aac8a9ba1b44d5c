import type { ChatMessage } from "../../../src/shared/messages";
import { focusChainProgress } from "../../../src/shared/focus-chain";
import { Row } from "./Row";

/** A change of the checklist, in one muted line: the list itself is shown above the chat (FocusChain). */
export function FocusChainRow({ message }: { message: ChatMessage }) {
  const chain = message.focusChain;
  const title = chain ? `${chain.by === "person" ? "You edited the checklist" : "Checklist updated"} (${focusChainProgress(chain.items)})` : "Checklist updated";
  return <Row message={message} icon="checklist" title={title} tone="muted" />;
}
