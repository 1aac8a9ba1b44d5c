/**
 * One source of settings: the Controller reads the store and the secret storage itself, so a
 * change made outside the panel (the person editing settings.json, a key stored from the command
 * palette) reaches the running task and the next one without any message forwarding it.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { goOn } from "../support/go-on";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

let server: ScriptedModelServer;
let workspace: string;
let storage: string;
let settings: MemorySettingsStore;
let secrets: MemorySecretStore;
let session: WebviewSession;

beforeEach(async () => {
  server = await startScriptedModelServer();
  workspace = await mkdtemp(join(tmpdir(), "tandem-settings-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-settings-store-"));
  settings = new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic", baseUrl: server.anthropicBaseUrl, modelId: "claude-sonnet-4-6" });
  secrets = new MemorySecretStore();
  await secrets.setApiKey("anthropic", "first-key");
  session = newSession();
});

function newSession(): WebviewSession {
  return new WebviewSession({
    post: () => {},
    host: new NodeHost(workspace),
    settings,
    secrets,
    storageRoot: storage,
    openFile: async () => {},
    controllerOptions: { retry: { baseDelayMs: 5, maxDelayMs: 10 }, partialUpdateIntervalMs: 5 },
  });
}

/** Accepts each task's result as the person would; any other question fails the test. */
async function finish(): Promise<string | undefined> {
  const timer = setInterval(() => {
    const question = session.controller.openQuestion;
    if (question?.kind === "completion_result") void session.handle(goOn(question));
    else if (question) throw new Error(`unexpected question: ${question.kind}`);
  }, 2);
  try {
    return await session.controller.waitForTask();
  } finally {
    clearInterval(timer);
  }
}

afterEach(async () => {
  await session.dispose();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(storage, { recursive: true, force: true });
});

/** A store whose change events have not arrived yet (VS Code announces a settings.json edit later). */
class UnannouncedSettingsStore extends MemorySettingsStore {
  override onDidChange(): { dispose(): void } {
    return { dispose: () => {} };
  }
}

it("a running task follows YOLO turned on in the settings store while it streams, before any change event", async () => {
  settings = new UnannouncedSettingsStore({ ...DEFAULT_AGENT_SETTINGS }, settings.getApiSettings());
  await session.dispose();
  session = newSession();
  const write = "<write_to_file>\n<path>a.txt</path>\n<content>\nhello\n</content>\n</write_to_file>";
  server.enqueue({ text: `${"thinking it over ".repeat(40)}\n${write}`, chunkSize: 20, delayMs: 5 }, done);
  await session.newTask("Write a.txt");
  // Changed where settings.json changes land, not through the panel.
  await settings.updateAgentSettings({ yolo: true });
  expect(await finish()).toBe("completed");
  expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("hello\n");
  // Approved by YOLO: the person was never asked.
  expect(session.controller.messages.some((m) => m.type === "ask" && m.ask === "tool")).toBe(false);
});

it("the next task uses the model and key stored since the last one", async () => {
  await settings.updateAgentSettings({ yolo: true });
  server.enqueue(done, done);
  await session.newTask("One");
  await finish();
  await settings.updateApiSettings({ modelId: "claude-opus-4-6" });
  await secrets.setApiKey("anthropic", "second-key");
  await session.newTask("Two");
  await finish();
  const [first, second] = server.requests;
  expect([first?.body.model, first?.headers.authorization]).toEqual(["claude-sonnet-4-6", "Bearer first-key"]);
  expect([second?.body.model, second?.headers.authorization]).toEqual(["claude-opus-4-6", "Bearer second-key"]);
});

it("tells what the provider's list says of the Act model with the configuration, and of any other model (the Plan model) when asked", async () => {
  const { storedSettings } = await import("../../src/core/controller/settings-source");
  const store = new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "ollama", modelId: "qwen3-coder:30b" });
  const windows: Record<string, number> = { "qwen3-coder:30b": 262_144, "llama3.2:3b": 131_072 };
  const source = storedSettings(store, new MemorySecretStore(), async (api) => (api.modelId ? { contextWindow: windows[api.modelId] } : undefined));
  expect((await source.apiConfiguration()).listedModel).toEqual({ contextWindow: 262_144 });
  expect(await source.listedModel?.("llama3.2:3b")).toEqual({ contextWindow: 131_072 });
});
