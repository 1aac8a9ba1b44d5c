/**
 * Opens the chat panel in plain Node as the extension host does when the page first says "ready"
 * (src/extension.ts's session factory): loads the built core (dist/core.js) through
 * host/vscode/core-bundle.ts with its code cache, makes the sandbox, the MCP hub and the
 * WebviewSession, and answers "ready" with the first state. Prints the CPU time that took, in
 * ms, as JSON on stdout, then keeps the code cache as the extension does after the first state.
 * Not a benchmark itself: startup.bench.ts runs it, `node --import tsx bench/open-panel.ts DIST CACHE
 * [--no-sandbox]` (without the command sandbox, whose check of the machine starts after the first state).
 * What the extension made at activation (the host, the stores) is made before the clock starts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySecretStore, MemorySettingsStore } from "../src/core/controller/stores";
import { loadCore } from "../src/host/vscode/core-bundle";
import { NodeHost } from "../src/host/node/node-host";
import type { ToWebviewMessage } from "../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../src/shared/settings";

async function main(): Promise<void> {
  const [dist, cacheFolder, flag] = process.argv.slice(2);
  if (!dist || !cacheFolder) throw new Error("usage: open-panel.ts DIST CACHE_FOLDER [--no-sandbox]");
  const storage = await mkdtemp(join(tmpdir(), "tandem-bench-panel-"));
  const settings = new MemorySettingsStore(DEFAULT_AGENT_SETTINGS, { provider: "anthropic", modelId: "claude-sonnet-4-6" });
  const host = new NodeHost(storage);
  const posted: ToWebviewMessage["type"][] = [];

  let used: NodeJS.CpuUsage | undefined;
  const start = process.cpuUsage();
  const loaded = loadCore(dist, cacheFolder);
  const { WebviewSession, CommandSandbox, McpServerConfiner, McpHub, gitCheckpoints } = loaded.core;
  // As the extension does: the machine check starts once the first state is posted.
  let firstStatePosted!: () => void;
  const checkAfter = new Promise<void>((resolve) => (firstStatePosted = resolve));
  const sandbox = flag === "--no-sandbox" ? undefined : CommandSandbox.create(settings.getAgentSettings().sandbox, { privateStorage: [storage], checkAfter });
  const hub = new McpHub({
    globalConfigFile: join(storage, "tandem_mcp_settings.json"),
    trustWorkspace: () => false,
    workspaceFolders: () => [storage],
    ...(sandbox ? { sandbox: new McpServerConfiner(sandbox) } : {}),
  });
  const session = new WebviewSession({
    sandbox,
    mcp: hub,
    post: (message) => {
      posted.push(message.type);
      if (message.type !== "state") return;
      // The clock stops here: what the session does after its first state does not delay the panel.
      used ??= process.cpuUsage(start);
      firstStatePosted();
    },
    host,
    settings,
    secrets: new MemorySecretStore(),
    storageRoot: storage,
    checkpoints: gitCheckpoints(storage, () => host.workspace.roots),
    openFile: async () => {},
  });
  void hub.start();
  await session.handle({ type: "ready" });
  if (!used) throw new Error(`the session posted no state (${posted.join(", ")})`);
  await loaded.keepCache();
  process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, cached: loaded.cached })}\n`);
  await session.dispose();
  await hub.shutdown();
  await sandbox?.dispose();
  await rm(storage, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
