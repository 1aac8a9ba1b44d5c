import type { ApiRequestInfo, ChatMessage } from "../../../src/shared/messages";
import { openEstimate } from "../../../src/shared/usage";
import { formatCost, formatTokens } from "../format";
import { usePanel } from "../state/panel-context";
import { Row, type RowTone } from "./Row";

function headline(info: ApiRequestInfo | undefined): { title: string; icon: string; tone: RowTone; spin: boolean } {
  switch (info?.outcome) {
    case undefined:
      return { title: "API request…", icon: "loading", tone: "muted", spin: true };
    case "completed":
      return { title: "API request", icon: "check", tone: "muted", spin: false };
    case "failed":
      return { title: "API request failed", icon: "error", tone: "error", spin: false };
    case "cancelled":
      return { title: "API request cancelled", icon: "circle-slash", tone: "warning", spin: false };
    case "retried":
      return { title: "API request failed, retrying", icon: "sync", tone: "warning", spin: false };
  }
}

/** One model request: its estimate until usage arrives (a task's first), its tokens and cost, then how it ended. */
export function ApiRequestRow({ message }: { message: ChatMessage }) {
  const info = message.apiRequest;
  const estimate = openEstimate(message);
  const { title, icon, tone, spin } = headline(info);
  return (
    <Row message={message} icon={icon} spin={spin} tone={tone} title={title}>
      {info && !estimate && (
        <div className="api-usage">
          <span title="Tokens in">↑ {formatTokens(info.tokensIn)}</span>
          <span title="Tokens out">↓ {formatTokens(info.tokensOut)}</span>
          {(info.cacheReads > 0 || info.cacheWrites > 0) && (
            <span title="Cache writes / reads">
              cache +{formatTokens(info.cacheWrites)} / {formatTokens(info.cacheReads)}
            </span>
          )}
          <span className="cost" title="Cost">{formatCost(info.cost)}</span>
        </div>
      )}
      {estimate && (
        <div className="api-usage">
          Estimate: ~{formatTokens(estimate.tokensIn)} tokens in, about {formatCost(estimate.cost)} before the answer
        </div>
      )}
      {info?.error && <div className="error-text">{info.error}</div>}
      {info?.keyRefused && <OpenSettings />}
    </Row>
  );
}

/** A refused key is fixed in the settings: one click there. */
function OpenSettings() {
  const { store } = usePanel();
  return (
    <button type="button" className="link-button" onClick={() => store.setView("settings")}>
      Open settings
    </button>
  );
}
