/**
 * The hub's snapshots as the panel sees them, and the deltas between two of the hub's states:
 * the hub announces its whole state on every change, the panel is sent only the servers that
 * changed (usually one), so a server that streams list changes does not resend ten others.
 */
import type { McpConfigProblem, McpHubState, McpServerSnapshot } from "../mcp";
import type { McpPanelState, McpProblemView, McpServerView } from "../../shared/mcp";
import type { ToWebviewMessage } from "../../shared/protocol";

export function serverView(s: McpServerSnapshot): McpServerView {
  return {
    name: s.name,
    source: s.source,
    state: s.state,
    ...(s.error ? { error: s.error } : {}),
    ...(s.stderrTail ? { stderrTail: s.stderrTail } : {}),
    timeoutSeconds: s.timeoutSeconds,
    tools: s.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), autoApprove: t.autoApprove })),
    resources: s.resources.map((r) => ({ uri: r.uri, name: r.name, ...(r.description ? { description: r.description } : {}) })),
    templates: s.resourceTemplates.map((r) => ({ uriTemplate: r.uriTemplate, name: r.name, ...(r.description ? { description: r.description } : {}) })),
  };
}

export function problemView(p: McpConfigProblem): McpProblemView {
  return { file: p.file, line: p.line, message: p.message };
}

export const NO_MCP: McpPanelState = { available: false, servers: [], problems: [], elicitations: [] };

type ServersChanged = Extract<ToWebviewMessage, { type: "mcpServersChanged" }>;

/** What the panel was last told, to send only what differs. */
export class McpViewDeltas {
  private servers = new Map<string, string>();
  private problems = "[]";

  /** The whole view, as `state` carries it; what follows is measured from it. */
  whole(state: McpHubState): { servers: McpServerView[]; problems: McpProblemView[] } {
    const servers = state.servers.map(serverView);
    const problems = state.problems.map(problemView);
    this.servers = new Map(servers.map((s) => [s.name, JSON.stringify(s)]));
    this.problems = JSON.stringify(problems);
    return { servers, problems };
  }

  /** The delta from what was last told to `state`; undefined when nothing the panel shows changed. */
  next(state: McpHubState): ServersChanged | undefined {
    const changed: McpServerView[] = [];
    const seen = new Map<string, string>();
    for (const view of state.servers.map(serverView)) {
      const json = JSON.stringify(view);
      seen.set(view.name, json);
      if (this.servers.get(view.name) !== json) changed.push(view);
    }
    const removed = [...this.servers.keys()].filter((name) => !seen.has(name));
    const problems = state.problems.map(problemView);
    const problemsJson = JSON.stringify(problems);
    const problemsChanged = problemsJson !== this.problems;
    this.servers = seen;
    this.problems = problemsJson;
    if (changed.length === 0 && removed.length === 0 && !problemsChanged) return undefined;
    return { type: "mcpServersChanged", changed, removed, ...(problemsChanged ? { problems } : {}) };
  }
}
