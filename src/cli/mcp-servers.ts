/**
 * The CLI's MCP servers: the global file (`--mcp-config FILE`, else `tandem_mcp_settings.json` in
 * the CLI's data folder, `$XDG_DATA_HOME/tandem/`, else `~/.local/share/tandem/`: global, not per
 * workspace) and the workspace's `.tandem/mcp.json`, whose servers start only with
 * `--trust-workspace` (a repository can ship a malicious server); otherwise the run says so once.
 * Servers with `"sandbox": true` run in the run's command sandbox (`--sandbox`). The hub starts
 * without waiting; each request waits for it at most 10 s.
 */
import { globalMcpSettingsFile, tandemDataFolder, workspaceMcpFile } from "../core/storage/paths";
import { McpHub, type McpServerSandbox, type WorkspaceTrustRequest } from "../core/mcp";

export type CliMcp =
  | { readonly kind: "none" }
  /** `configFile`: --mcp-config, else the default global file. */
  | { readonly kind: "on"; readonly configFile?: string; readonly trustWorkspace: boolean };

export function defaultMcpConfigFile(env: NodeJS.ProcessEnv): string {
  return globalMcpSettingsFile(tandemDataFolder(env));
}

/**
 * The hub for this run, started (not awaited); undefined with --no-mcp. Problems of the files are
 * said once they are read. `folders`: the workspace's, the primary first (its `.tandem/mcp.json`
 * is the workspace file, as VS Code reads the first folder's).
 */
export function startMcpHub(mcp: CliMcp, folders: readonly string[], env: NodeJS.ProcessEnv, note: (text: string) => void, sandbox?: McpServerSandbox): McpHub | undefined {
  const [cwd = process.cwd()] = folders;
  if (mcp.kind === "none") return undefined;
  const hub = new McpHub({
    globalConfigFile: mcp.configFile ?? defaultMcpConfigFile(env),
    workspaceConfigFile: workspaceMcpFile(cwd),
    trustWorkspace: (request) => {
      if (!mcp.trustWorkspace) note(untrustedNote(request));
      return mcp.trustWorkspace;
    },
    workspaceFolders: () => [...folders],
    ...(sandbox ? { sandbox } : {}),
    // One run: a file changed meanwhile is read by the next run.
    watch: false,
  });
  void hub.start().then(() => {
    for (const problem of hub.state().problems) note(`tandem: MCP: ${problem.message}`);
  });
  return hub;
}

function untrustedNote(request: WorkspaceTrustRequest): string {
  const names = request.servers.map((s) => s.name).join(", ");
  return `tandem: ${request.file} names MCP servers (${names}); they are not started, since a repository can ship any program. Run with --trust-workspace to start them.`;
}
