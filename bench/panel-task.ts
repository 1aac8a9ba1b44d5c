/**
 * One whole task as the VS Code panel runs it, for the benchmarks: the WebviewSession (so the
 * Controller, the Task and the real provider SDK) against a scripted model server. Every question
 * is answered with the answer that goes on (Approve, Accept, …) through the protocol, as a person clicking in the panel would, and every post
 * to the panel is counted in the bytes VS Code would serialise (JSON).
 * Not a benchmark itself (no `.bench.ts`): the benchmarks import it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySecretStore, MemorySettingsStore } from "../src/core/controller/stores";
import { WebviewSession } from "../src/core/controller/webview-session";
import { NodeHost } from "../src/host/node/node-host";
import type { ChatMessage } from "../src/shared/messages";
import type { ToWebviewMessage } from "../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from "../src/shared/settings";
import { goOn } from "../test/support/go-on";

export interface PanelTaskOptions {
  /** The scripted model server's Anthropic base URL; its script must already hold the turns. */
  baseUrl: string;
  prompt: string;
  agent?: Partial<AgentSettings>;
  /** Sees every posted message (e.g. a webview store replaying them). */
  onPost?: (message: ToWebviewMessage) => void;
  /** Runs after the task, before its workspace is removed: to check what it did. */
  inspect?: (done: { workspace: string; messages: readonly ChatMessage[] }) => Promise<void>;
}

export interface PanelTaskResult {
  outcome: string | undefined;
  ms: number;
  posts: number;
  bytes: number;
}

export async function runPanelTask(options: PanelTaskOptions): Promise<PanelTaskResult> {
  const workspace = await mkdtemp(join(tmpdir(), "tandem-bench-ws-"));
  const storage = await mkdtemp(join(tmpdir(), "tandem-bench-store-"));
  const secrets = new MemorySecretStore();
  await secrets.setApiKey("anthropic", "bench-key");
  let posts = 0;
  let bytes = 0;
  const session: WebviewSession = new WebviewSession({
    post: (message) => {
      posts++;
      bytes += Buffer.byteLength(JSON.stringify(message));
      options.onPost?.(message);
      const { question } = message.type === "questionChanged" ? message : {};
      if (question) setImmediate(() => void session.handle(goOn(question)));
    },
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore(
      { ...DEFAULT_AGENT_SETTINGS, ...options.agent },
      { provider: "anthropic", baseUrl: options.baseUrl, modelId: "claude-sonnet-4-6" },
    ),
    secrets,
    storageRoot: storage,
    openFile: async () => {},
    controllerOptions: { environment: { os: "Linux", shell: "/bin/bash" } },
  });
  try {
    await session.handle({ type: "ready" });
    const start = performance.now();
    await session.newTask(options.prompt);
    const outcome = await session.controller.waitForTask();
    const ms = performance.now() - start;
    await options.inspect?.({ workspace, messages: session.controller.messages });
    return { outcome, ms, posts, bytes };
  } finally {
    await session.dispose();
    await rm(workspace, { recursive: true, force: true });
    await rm(storage, { recursive: true, force: true });
  }
}

/** The XML call that ends a scripted task once the person accepts it. */
export const COMPLETION = "<attempt_completion>\n<result>\nDone.\n</result>\n</attempt_completion>";
