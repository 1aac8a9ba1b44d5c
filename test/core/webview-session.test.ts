/**
 * The host side of the chat panel, without an editor: the protocol messages it posts for a whole
 * task, what it does with the webview's messages, and what never crosses to the webview.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { NodeHost } from "../../src/host/node/node-host";
import type { ChatMessage } from "../../src/shared/messages";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { goOn } from "../support/go-on";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

const SECRET = "sk-ant-very-secret-key-123";
const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

let server: ScriptedModelServer;
let workspace: string;
let storage: string;
let posted: ToWebviewMessage[];
let session: WebviewSession;
let secrets: MemorySecretStore;

beforeEach(async () => {
  server = await startScriptedModelServer();
  workspace = await mkdtemp(join(tmpdir(), "tandem-session-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-session-store-"));
  posted = [];
  secrets = new MemorySecretStore();
  session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic", baseUrl: server.anthropicBaseUrl, modelId: "claude-sonnet-4-6" }),
    secrets,
    storageRoot: storage,
    openFile: async () => {},
    controllerOptions: { retry: { baseDelayMs: 5, maxDelayMs: 10 }, partialUpdateIntervalMs: 5 },
  });
});

afterEach(async () => {
  await session.dispose();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(storage, { recursive: true, force: true });
});

const send = (message: FromWebviewMessage) => session.handle(message);
/** An update of a row while it streams: a delta, or the row whole. */
const isStreamedUpdate = (m: ToWebviewMessage) => m.type === "messageStreamed" || (m.type === "messageUpdated" && m.message.partial === true);
const ofType = <T extends ToWebviewMessage["type"]>(type: T) => posted.filter((m): m is Extract<ToWebviewMessage, { type: T }> => m.type === type);

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Goes on at every question the task asks, through the protocol, as the panel would. */
function approveThroughProtocol(): () => void {
  const answered = new Set<number>();
  const timer = setInterval(() => {
    const question = session.controller.openQuestion;
    if (question && !answered.has(question.id)) {
      answered.add(question.id);
      void send(goOn(question));
    }
  }, 2);
  return () => clearInterval(timer);
}

describe("WebviewSession", () => {
  it("sends the whole state once on ready, then only deltas", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    await send({ type: "ready" });
    expect(ofType("state")).toHaveLength(1);
    expect(ofType("state")[0]?.state.settings.hasApiKey).toEqual({ anthropic: true, openai: false });

    server.enqueue({ text: "Working on it.", chunkSize: 3 }, done);
    const stop = approveThroughProtocol();
    await send({ type: "newTask", text: "Say hi", images: [] });
    await session.controller.waitForTask();
    stop();
    expect(ofType("state")).toHaveLength(1);
    expect(ofType("messageAdded").length).toBeGreaterThan(3);
    expect(ofType("messageUpdated").length).toBeGreaterThan(1);
    expect(ofType("taskChanged").at(-1)?.task?.text).toBe("Say hi");
    expect(ofType("taskRunning").at(-1)?.running).toBe(false);
    expect(ofType("historyChanged").at(-1)?.history[0]).toMatchObject({ text: "Say hi" });
  });

  it("never sends the API key to the webview", async () => {
    await send({ type: "setApiKey", provider: "anthropic", apiKey: SECRET });
    expect(await secrets.getApiKey("anthropic")).toBe(SECRET);
    server.enqueue(done);
    const stop = approveThroughProtocol();
    await send({ type: "newTask", text: "Go", images: [] });
    await session.controller.waitForTask();
    stop();
    await send({ type: "ready" });
    expect(server.requests[0]?.headers["x-api-key"]).toBe(SECRET);
    expect(JSON.stringify(posted)).not.toContain(SECRET);
  });

  it("refuses to start without a key and shows the settings view", async () => {
    await send({ type: "newTask", text: "Go", images: [] });
    // The panel says why for as long as it is true (settings.needsApiKey), so no notice outlives it.
    expect(ofType("notice")).toHaveLength(0);
    expect(ofType("showView")[0]?.view).toBe("settings");
    expect(server.requests).toHaveLength(0);
  });

  it("applies settings changes to the store and tells the webview", async () => {
    await send({ type: "updateAgentSettings", settings: { yolo: true } });
    await send({ type: "updateApiSettings", settings: { modelId: "claude-opus-4-6" } });
    const last = ofType("settingsChanged").at(-1)?.settings;
    expect(last?.agent.yolo).toBe(true);
    expect(last?.api.modelId).toBe("claude-opus-4-6");
    expect(session.controller.getSettings().yolo).toBe(true);
  });

  it("resumes an interrupted task from the history and deletes it on request", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue({ text: "slow ".repeat(300), chunkSize: 5, delayMs: 5 }, done);
    await send({ type: "newTask", text: "Long job", images: [] });
    await until(() => session.controller.messages.some((m) => m.type === "say" && m.say === "text"));
    await send({ type: "cancelTask" });
    const id = session.controller.currentTask?.taskId ?? "";
    await send({ type: "clearTask" });

    const stop = approveThroughProtocol();
    await send({ type: "resumeTask", id });
    expect(await session.controller.waitForTask()).toBe("completed");
    stop();
    expect(session.controller.messages.some((m) => m.type === "ask" && m.ask === "resume_task")).toBe(true);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain("TASK RESUMPTION");

    await send({ type: "deleteTask", id });
    expect(ofType("historyChanged").at(-1)?.history.some((h) => h.id === id)).toBe(false);
  });

  it("posts the same few bytes per streamed chunk on a 3,000-message task as on a short one", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    const streamed = { text: "token ".repeat(200) + done.text, chunkSize: 6, delayMs: 1 };

    // A short task.
    server.enqueue(streamed);
    const stopShort = approveThroughProtocol();
    await send({ type: "newTask", text: "Short", images: [] });
    await session.controller.waitForTask();
    stopShort();
    const shortUpdates = posted.filter(isStreamedUpdate);

    // A saved task with 3,000 messages, resumed, then the same answer streamed.
    const longId = "long-task";
    const longChat: ChatMessage[] = [{ ts: 1, type: "say", say: "task", text: "Long" }];
    for (let i = 0; i < 2_999; i++) longChat.push({ ts: 2 + i, type: "say", say: "text", text: `earlier message ${i} `.repeat(5) });
    const store = new TaskStorage(storage, longId);
    await store.saveChatMessages(longChat);
    await store.saveApiHistory([
      { role: "user", content: [{ type: "text", text: "<task>\nLong\n</task>" }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
    posted = [];
    server.enqueue(streamed);
    const stopLong = approveThroughProtocol();
    await send({ type: "resumeTask", id: longId });
    await session.controller.waitForTask();
    stopLong();
    expect(session.controller.messages.length).toBeGreaterThan(3_000);
    const longUpdates = posted.filter(isStreamedUpdate);

    const size = (m: ToWebviewMessage) => Buffer.byteLength(JSON.stringify(m));
    const maxShort = Math.max(...shortUpdates.map(size));
    const maxLong = Math.max(...longUpdates.map(size));
    console.log(`bytes per streamed update: short task max ${maxShort}, 3,000-message task max ${maxLong}`);
    expect(longUpdates.length).toBeGreaterThan(0);
    // The long task's text is the same; only timestamps' digits may differ.
    expect(maxLong).toBeLessThanOrEqual(maxShort + 32);
  });
});

