import { useState } from "react";
import type { McpAction, McpServerStatus, McpServerView } from "../../../src/shared/mcp";
import { VscodeButton } from "../components/vscode-elements";
import { usePost } from "../use-extension-state";
import { TimeoutField } from "./TimeoutField";

const STATE_LABELS: Record<McpServerStatus, string> = {
  connecting: "Connecting",
  connected: "Connected",
  disabled: "Disabled",
  failed: "Failed",
  untrusted: "Not trusted",
};

/** One server: its state, why it failed (folded), its tools with their auto-approve switch, its resources and actions. */
export function McpServerItem({ server }: { server: McpServerView }) {
  const post = usePost();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const act = (action: McpAction) => post({ type: "mcpAction", action });
  const disabled = server.state === "disabled";
  return (
    <li className="mcp-server" aria-label={server.name} data-state={server.state}>
      <div className="mcp-server-head">
        <span className="mcp-server-name">{server.name}</span>
        <span className={`badge mcp-state state-${server.state}`}>{STATE_LABELS[server.state]}</span>
        {server.source === "workspace" && <span className="badge mcp-source">workspace</span>}
      </div>
      <div className="mcp-actions">
        <VscodeButton secondary onClick={() => act({ action: "setDisabled", server: server.name, disabled: !disabled })}>
          {disabled ? "Enable" : "Disable"}
        </VscodeButton>
        <VscodeButton secondary disabled={disabled || server.state === "untrusted"} onClick={() => act({ action: "restart", server: server.name })}>
          Restart
        </VscodeButton>
        {confirmingDelete ? (
          <>
            <VscodeButton secondary onClick={() => act({ action: "delete", server: server.name })}>
              Confirm delete
            </VscodeButton>
            <VscodeButton secondary onClick={() => setConfirmingDelete(false)}>
              Keep
            </VscodeButton>
          </>
        ) : (
          <VscodeButton secondary onClick={() => setConfirmingDelete(true)}>
            Delete
          </VscodeButton>
        )}
        <TimeoutField seconds={server.timeoutSeconds} onSave={(seconds) => act({ action: "setTimeout", server: server.name, seconds })} />
      </div>
      {server.error && <div className="mcp-error">{server.error}</div>}
      {server.stderrTail && (
        <details className="mcp-stderr">
          <summary>Server output (stderr)</summary>
          <pre>{server.stderrTail}</pre>
        </details>
      )}
      {server.state === "untrusted" && (
        <div className="mcp-untrusted">
          <span>This workspace's servers start only once you trust them.</span>
          <VscodeButton onClick={() => act({ action: "trustWorkspace" })}>Trust</VscodeButton>
        </div>
      )}
      {server.tools.length > 0 && (
        <details className="mcp-tools" open>
          <summary>
            Tools ({server.tools.length}) <span className="muted-text">— checked ones run without asking</span>
          </summary>
          <ul>
            {server.tools.map((tool) => (
              <li key={tool.name} className="mcp-tool">
                <label>
                  <input
                    type="checkbox"
                    checked={tool.autoApprove}
                    aria-label={`Auto-approve ${tool.name}`}
                    onChange={(event) => act({ action: "setToolAutoApprove", server: server.name, tool: tool.name, allow: event.target.checked })}
                  />
                  <span className="mcp-tool-name">{tool.name}</span>
                </label>
                {tool.description && <div className="mcp-tool-description">{tool.description}</div>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.resources.length + server.templates.length > 0 && (
        <details className="mcp-resources">
          <summary>Resources ({server.resources.length + server.templates.length})</summary>
          <ul>
            {server.resources.map((r) => (
              <li key={r.uri} title={r.description}>
                {r.name} <code>{r.uri}</code>
              </li>
            ))}
            {server.templates.map((t) => (
              <li key={t.uriTemplate} title={t.description}>
                {t.name} <code>{t.uriTemplate}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}
