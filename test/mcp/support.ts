/**
 * Helpers for the MCP tests: real servers from npm and the hostile fixtures, started through a
 * real McpHub from a real configuration file in a temp folder.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { McpHub, type McpHubOptions } from "../../src/core/mcp";

const require = createRequire(import.meta.url);

/** The entry script of a package's bin, run with this Node (no npx, no network). */
export function serverScript(pkg: "server-everything" | "server-filesystem" | "server-memory"): string {
  return path.join(path.dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), "dist", "index.js");
}

export function fixture(name: string): string {
  return path.join(import.meta.dirname, "fixtures", name);
}

export function stdio(script: string, ...args: string[]): Record<string, unknown> {
  return { command: process.execPath, args: [script, ...args] };
}

export interface TestHub {
  readonly hub: McpHub;
  readonly folder: string;
  readonly configFile: string;
  close(): Promise<void>;
}

export async function startHub(servers: Record<string, unknown>, options: Partial<McpHubOptions> = {}): Promise<TestHub> {
  const folder = await mkdtemp(path.join(tmpdir(), "tandem-mcp-"));
  const configFile = path.join(folder, "tandem_mcp_settings.json");
  await writeFile(configFile, JSON.stringify({ mcpServers: servers }, null, 2));
  const hub = new McpHub({
    globalConfigFile: configFile,
    trustWorkspace: () => false,
    workspaceFolders: () => [folder],
    watch: false,
    connectTimeoutMs: 10_000,
    ...options,
  });
  await hub.start();
  return {
    hub,
    folder,
    configFile,
    async close() {
      await hub.shutdown();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
