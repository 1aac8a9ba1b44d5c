import { VscodeButton } from "../components/vscode-elements";
import { usePost, useExtensionState } from "../use-extension-state";
import { McpServerItem } from "./McpServerItem";

/**
 * The MCP servers, as the host's hub says: each with its state, tools and resources and what can be
 * done to it, the configuration files' problems, and the file actions. Every action is a request to
 * the host; what changed comes back as the servers' new state, a failure as a notice.
 */
export function McpView({ onDone }: { onDone: () => void }) {
  const mcp = useExtensionState((state) => state.mcp);
  const post = usePost();
  return (
    <div className="mcp-view">
      <header className="view-header">
        <h2>MCP Servers</h2>
        <VscodeButton onClick={onDone}>Done</VscodeButton>
      </header>
      {!mcp.available && <p className="muted-text">MCP servers are not available in this host.</p>}
      <div className="mcp-file-actions">
        <VscodeButton secondary onClick={() => post({ type: "mcpAction", action: { action: "editConfig" } })}>
          Edit configuration
        </VscodeButton>
        <VscodeButton secondary onClick={() => post({ type: "mcpAction", action: { action: "openWorkspaceConfig" } })}>
          Open workspace file
        </VscodeButton>
        <VscodeButton secondary onClick={() => post({ type: "mcpAction", action: { action: "importFromCline" } })}>
          Import from Cline
        </VscodeButton>
      </div>
      {mcp.problems.length > 0 && (
        <ul className="mcp-problems" aria-label="Configuration problems">
          {mcp.problems.map((p) => (
            <li key={`${p.file}:${p.line}:${p.message}`} className="mcp-problem">
              {p.message}
            </li>
          ))}
        </ul>
      )}
      {mcp.available && mcp.servers.length === 0 && (
        <p className="muted-text">No MCP server is configured. “Edit configuration” opens the file, in Cline's format: {'{"mcpServers": {"name": {"command": "…", "args": […]}}}'}.</p>
      )}
      <ul className="mcp-servers" aria-label="MCP servers">
        {mcp.servers.map((server) => (
          <McpServerItem key={server.name} server={server} />
        ))}
      </ul>
    </div>
  );
}
