import type { ChatMessage } from "../../../src/shared/messages";
import { Row } from "./Row";

/** Something went wrong: a reported error, or (as an ask) a request that failed after its retries. */
export function ErrorRow({ message }: { message: ChatMessage }) {
  const failedRequest = message.type === "ask" && message.ask === "api_req_failed";
  return (
    <Row message={message} icon="error" title={failedRequest ? "API request failed" : "Error"} tone="error">
      <div className="error-text">{message.text}</div>
    </Row>
  );
}
