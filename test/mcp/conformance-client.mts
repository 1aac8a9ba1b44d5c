/**
 * The adapter the MCP conformance suite runs per client scenario
 * (`conformance client --command "node --import tsx test/mcp/conformance-client.mts"`): the suite
 * starts a test server, appends its URL and names the scenario in MCP_CONFORMANCE_SCENARIO. This
 * drives Tandem's own McpHub — a configuration file naming the server, the hub's connect, list
 * and call — not a second client. The host parts are stand-ins: an elicitation handler that
 * accepts with empty content (so the SDK fills in the schema's defaults) and an OAuth host whose
 * "browser" follows the authorization URL's redirect to read the code.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { McpHub } from "../../src/core/mcp/index";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv.at(-1) as string;

/** The tool each scenario expects to be called (besides connect and list). */
const CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  tools_call: { tool: "add_numbers", args: { a: 5, b: 3 } },
  "elicitation-sep1034-client-defaults": { tool: "test_client_elicitation_defaults", args: {} },
  "sse-retry": { tool: "test_reconnection", args: {} },
};

const secrets = new Map<string, string>();
const folder = await mkdtemp(path.join(tmpdir(), "tandem-conformance-"));
const configFile = path.join(folder, "tandem_mcp_settings.json");
await writeFile(configFile, JSON.stringify({ mcpServers: { conformance: { type: "streamableHttp", url } } }));
const hub = new McpHub({
  globalConfigFile: configFile,
  trustWorkspace: () => false,
  workspaceFolders: () => [folder],
  watch: false,
  connectTimeoutMs: 20_000,
  elicit: async () => ({ action: "accept", content: {} }),
  oauth: {
    secrets: { get: async (k) => secrets.get(k), set: async (k, v) => void (v === undefined ? secrets.delete(k) : secrets.set(k, v)) },
    redirectUrl: "http://localhost:3000/callback",
    clientName: "tandem-conformance",
    authorize: async (_server, authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: "manual" });
      const code = new URL(response.headers.get("location") ?? "http://invalid/").searchParams.get("code");
      if (!code) throw new Error(`no authorization code in the redirect from ${authorizationUrl}`);
      return code;
    },
  },
});

let exitCode = 0;
try {
  await hub.start();
  await hub.waitForConnections(25_000);
  const server = hub.servers()[0];
  if (server?.state !== "connected") throw new Error(`not connected: ${server?.state} ${server?.error ?? ""}`);
  const call = CALLS[scenario] ?? (scenario.startsWith("auth/") && server.tools.some((t) => t.name === "test-tool") ? { tool: "test-tool", args: {} } : undefined);
  if (call) {
    const result = await hub.callTool("conformance", call.tool, call.args);
    console.log(JSON.stringify(result).slice(0, 500));
    if (result.isError) exitCode = 1;
  }
} catch (error) {
  console.error(`conformance adapter (${scenario}):`, error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await hub.shutdown();
  await rm(folder, { recursive: true, force: true });
}
process.exit(exitCode);
