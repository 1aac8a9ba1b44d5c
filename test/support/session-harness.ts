/**
 * A WebviewSession over the real Controller, the real SDK and the scripted model server, in a
 * throwaway workspace and storage folder: what the panel-protocol tests share. `posted` collects
 * what the session sends to the page.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from "../../src/shared/settings";
import { startScriptedModelServer, type ScriptedModelServer } from "./scripted-model-server";

export interface SessionHarness {
  server: ScriptedModelServer;
  workspace: string;
  storage: string;
  posted: ToWebviewMessage[];
  session: WebviewSession;
  dispose(): Promise<void>;
}

export async function openSession(options: { name: string; agent?: Partial<AgentSettings>; modelId?: string }): Promise<SessionHarness> {
  const server = await startScriptedModelServer();
  const workspace = await mkdtemp(join(tmpdir(), `tandem-${options.name}-ws-`));
  const storage = await mkdtemp(join(tmpdir(), `tandem-${options.name}-store-`));
  const posted: ToWebviewMessage[] = [];
  const secrets = new MemorySecretStore();
  await secrets.setApiKey("anthropic", "test-key");
  const session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS, ...options.agent }, { provider: "anthropic", baseUrl: server.anthropicBaseUrl, modelId: options.modelId ?? "claude-sonnet-4-6" }),
    secrets,
    storageRoot: storage,
    openFile: async () => {},
    controllerOptions: { retry: { baseDelayMs: 5, maxDelayMs: 10 }, partialUpdateIntervalMs: 5 },
  });
  return {
    server,
    workspace,
    storage,
    posted,
    session,
    async dispose() {
      await session.dispose();
      await server.close();
      await rm(workspace, { recursive: true, force: true });
      await rm(storage, { recursive: true, force: true });
    },
  };
}

/** Waits until `condition` holds (the session works on later turns of the event loop). */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
