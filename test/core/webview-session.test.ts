/**
 * The host side of the chat panel, without an editor: the protocol messages it posts for a whole
 * task, what it does with the webview's messages, and what never crosses to the webview.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_MODEL_ID } from "../../src/api/model-info";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { NodeHost } from "../../src/host/node/node-host";
import type { ChatMessage } from "../../src/shared/messages";
import type { FromWebviewMessage, ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { ExtensionStore } from "../../webview-ui/src/state/extension-store";
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
/** What the session told the host about the running task (for a window reload). */
let runningTasks: (string | undefined)[];

beforeEach(async () => {
  server = await startScriptedModelServer();
  workspace = await mkdtemp(join(tmpdir(), "tandem-session-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-session-store-"));
  posted = [];
  runningTasks = [];
  secrets = new MemorySecretStore();
  session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    runningTaskChanged: (taskId) => runningTasks.push(taskId),
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
    expect(ofType("state")[0]?.state.settings.hasApiKey).toEqual({ anthropic: true, openai: false, gemini: false, bedrock: false, openrouter: false });

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
    expect(ofType("historyItemChanged").at(-1)?.item).toMatchObject({ text: "Say hi" });
  });

  it("says what the task is once, as the Controller knows it, and History agrees", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue(done);
    const stop = approveThroughProtocol();
    await send({ type: "newTask", text: "Name the task", images: [] });
    await session.controller.waitForTask();
    stop();
    // One taskChanged per task, carrying its prompt from the start (nothing sniffed from its first row).
    const changes = ofType("taskChanged");
    expect(changes).toHaveLength(1);
    expect(changes[0]?.task).toEqual(session.controller.currentSummary);
    expect(changes[0]?.task?.text).toBe("Name the task");
    const listed = ofType("historyItemChanged").at(-1)?.item;
    expect(listed).toMatchObject({ id: changes[0]?.task?.id, text: "Name the task", startedAt: changes[0]?.task?.startedAt });
    await send({ type: "ready" });
    expect(ofType("state").at(-1)?.state).toMatchObject({ task: changes[0]?.task, running: false });
    // The host hears which task runs from the session itself, not by reading what goes to the panel.
    expect(runningTasks).toEqual([changes[0]?.task?.id, undefined]);
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
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
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
    expect(last?.model).toEqual({ id: "claude-opus-4-6", isDefault: false, catalogueId: "claude-opus-4-6" });
    expect(session.controller.getSettings().yolo).toBe(true);
    // No model set: the settings name the provider's default as the model in use, and know it.
    await send({ type: "updateApiSettings", settings: { modelId: "" } });
    expect(ofType("settingsChanged").at(-1)?.settings.model).toEqual({ id: DEFAULT_MODEL_ID.anthropic, isDefault: true, catalogueId: DEFAULT_MODEL_ID.anthropic });
    await send({ type: "updateApiSettings", settings: { modelId: "claude-haiku-4-5-20251001" } });
    expect(ofType("settingsChanged").at(-1)?.settings.model).toEqual({ id: "claude-haiku-4-5-20251001", isDefault: false, catalogueId: "claude-haiku-4-5" });
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
    expect(ofType("historyItemsRemoved").at(-1)?.ids).toEqual([id]);
    await send({ type: "ready" });
    expect(ofType("state").at(-1)?.state.history.some((h) => h.id === id)).toBe(false);
  });

  it("keeps a task's digest and star as it runs and is reopened: History's search finds what the model said, the star stays", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue({ text: "The zebra crossing stays.\n<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" });
    const stop = approveThroughProtocol();
    await send({ type: "newTask", text: "Rename the loader", images: [] });
    expect(await session.controller.waitForTask()).toBe("completed");
    stop();
    const id = session.controller.currentTask?.taskId ?? "";
    await send({ type: "setFavorite", id, favorite: true });
    await send({ type: "searchHistory", query: "zebra", requestId: 7, scope: "workspace" });
    expect(ofType("historyResults").at(-1)).toMatchObject({ requestId: 7, total: 1, matches: [{ id, field: "conversation", snippet: { text: "The zebra crossing stays.", by: "model" } }] });

    // Reopened, the Controller records the task again: the star it does not know of stays.
    posted = [];
    await send({ type: "resumeTask", id });
    await until(() => ofType("historyItemChanged").some((m) => m.item.id === id && m.item.status === "completed"));
    expect(ofType("historyItemChanged").at(-1)?.item).toMatchObject({ id, favorite: true, workspace });
    await session.dispose();
    const folder = join(storage, "tasks", id);
    expect(JSON.parse(await readFile(join(folder, "history_item.json"), "utf8"))).toMatchObject({ id, favorite: true, workspace });
    expect(await readFile(join(folder, "search_digest.txt"), "utf8")).toContain("The zebra crossing stays.");
  });

  it("reopens the task a reload interrupted while saying it is restoring, until its chat is loaded", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue({ text: "slow ".repeat(300), chunkSize: 5, delayMs: 5 });
    await send({ type: "newTask", text: "Interrupted job", images: [] });
    await until(() => session.controller.messages.some((m) => m.type === "say" && m.say === "text"));
    const id = session.controller.currentTask?.taskId ?? "";
    await session.controller.clearTask("shutdown");
    posted = [];

    const reopened = session.reopenInterruptedTask(id);
    // A page that loads meanwhile hears it too, in its state.
    await send({ type: "ready" });
    expect(await reopened).toBe(true);
    const types = posted.map((m) => m.type).filter((t) => t === "restoring" || t === "messagesLoaded");
    expect(types).toEqual(["restoring", "messagesLoaded", "restoring"]);
    expect(ofType("restoring").map((m) => m.restoring)).toEqual([true, false]);
    expect(ofType("state")[0]?.state.restoring).toBe(true);
    expect(session.controller.currentTask?.taskId).toBe(id);
    // With a task open, there is nothing to reopen.
    expect(await session.reopenInterruptedTask("another")).toBe(false);
    await session.controller.clearTask();

    posted = [];
    expect(await session.reopenInterruptedTask("no-such-task")).toBe(false);
    expect(ofType("restoring").map((m) => m.restoring)).toEqual([true, false]);
    expect(ofType("notice").at(-1)?.text).toMatch(/No saved task no-such-task/);
    await send({ type: "ready" });
    expect(ofType("state").at(-1)?.state).toMatchObject({ restoring: false, workspace });
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

describe("the open question", () => {
  const followup = { text: "<ask_followup_question>\n<question>Tabs or spaces?</question>\n</ask_followup_question>" };
  const refusals = () => ofType("answerRefused");

  it("is announced when it opens and closes, is in the state of a page that loads, and takes only answers naming it", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue(followup, done);
    await send({ type: "newTask", text: "Format it", images: [] });
    await until(() => session.controller.openQuestion?.kind === "followup");
    const question = session.controller.openQuestion;
    const id = question?.id ?? -1;
    expect(question).toEqual({ id, kind: "followup", answers: ["reply"] });
    expect(ofType("questionChanged").at(-1)?.question).toEqual(question);
    await send({ type: "ready" });
    expect(ofType("state").at(-1)?.state.question).toEqual(question);

    // Another question's answer, or one this question does not take: handed back, the question still open.
    await send({ type: "answer", answer: { questionId: id - 1, choice: "reply", text: "tabs" } });
    await send({ type: "answer", answer: { questionId: id, choice: "approve" } });
    expect(refusals().map((r) => [r.answer.text, r.reason])).toEqual([
      ["tabs", "That question was already closed; Tandem now asks something else."],
      [undefined, '"approve" is not an answer to this question.'],
    ]);
    expect(session.controller.openQuestion).toEqual(question);

    await send({ type: "answer", answer: { questionId: id, choice: "reply", text: "tabs" } });
    expect(ofType("questionChanged").at(-1)?.question?.id).not.toBe(id);
    // The same answer again, now late: refused, not applied to whatever is asked next.
    await send({ type: "answer", answer: { questionId: id, choice: "reply", text: "tabs" } });
    expect(refusals()).toHaveLength(3);
    const stop = approveThroughProtocol();
    expect(await session.controller.waitForTask()).toBe("completed");
    stop();
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain("tabs");
    // Delivered once: the late copy showed nothing.
    expect(session.controller.messages.filter((m) => m.type === "say" && m.say === "user_feedback")).toHaveLength(1);
    expect(ofType("questionChanged").at(-1)?.question).toBeUndefined();
  });

  it("stays open while a running command's output streams, and is announced closed when the command ends first", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    // It ends only once the test has looked (the file `go`): a loaded machine may take any time to look.
    const command = "echo started; sleep 3.4; echo still going; while [ ! -e go ]; do sleep 0.1; done; echo done";
    server.enqueue({ text: `<execute_command>\n<command>${command}</command>\n</execute_command>` }, done);
    const page = new ExtensionStore();
    const replay = posted.length;
    await send({ type: "newTask", text: "Run it", images: [] });
    await until(() => session.controller.openQuestion?.kind === "command");
    await send({ type: "answer", answer: { questionId: session.controller.openQuestion?.id ?? -1, choice: "run" } });
    // Limits that only catch a hang: beside the e2e suite the command's start took over 8 s.
    await until(() => session.controller.openQuestion?.kind === "command_output", 30_000);
    const running = session.controller.openQuestion;
    const id = running?.id ?? -1;
    expect(running?.answers).toEqual(["proceed", "kill", "reply"]);
    await until(() => session.controller.messages.some((m) => m.ts > id && m.text?.includes("still going")), 20_000);
    for (const message of posted.slice(replay)) if (message.type !== "taskChanged" || message.task) page.apply(message);
    // Output after the question is in the panel, and the panel still holds the question the host asks.
    expect(page.getState().question).toEqual(running);
    await writeFile(join(workspace, "go"), "");
    // Beside the e2e suite the command's end can take seconds to be seen.
    await until(() => session.controller.openQuestion === undefined, 15_000);
    expect(ofType("questionChanged").at(-1)?.question).toBeUndefined();
    // An answer typed just before the command ended arrives late: refused and handed back.
    await send({ type: "answer", answer: { questionId: id, choice: "reply", text: "and then lint" } });
    expect(refusals().at(-1)).toMatchObject({ answer: { text: "and then lint" }, reason: "That question was already closed." });
    const stop = approveThroughProtocol();
    expect(await session.controller.waitForTask()).toBe("completed");
    stop();
  }, 90_000);
});


describe("the rules files in the panel", () => {
  it("lists the workspace's and the global rules on request, and a switch turned off shows at once and leaves the next task's prompt", async () => {
    await writeFile(join(workspace, "AGENTS.md"), "AGENTS-PANEL-RULE");
    await mkdir(join(storage, "rules"), { recursive: true });
    await writeFile(join(storage, "rules", "mine.md"), "GLOBAL-PANEL-RULE");
    await send({ type: "rules" });
    expect(ofType("rules").at(-1)?.rules.files).toEqual([
      { name: "global/mine.md", enabled: true },
      { name: "AGENTS.md", enabled: true },
    ]);
    await send({ type: "updateAgentSettings", settings: { ruleToggles: { "AGENTS.md": false } } });
    expect(ofType("rules").at(-1)?.rules.files).toEqual([
      { name: "global/mine.md", enabled: true },
      { name: "AGENTS.md", enabled: false },
    ]);
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue(done);
    const stop = approveThroughProtocol();
    await send({ type: "newTask", text: "go", images: [] });
    await session.controller.waitForTask();
    stop();
    const system = JSON.stringify(server.requests[0]?.body.system);
    expect(system).toContain("GLOBAL-PANEL-RULE");
    expect(system).not.toContain("AGENTS-PANEL-RULE");
  });
});

describe("the settings view's provider actions", () => {
  it("Test connection sends one small request with the stored key and says who answered", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue({ text: "OK, and then a long answer that is never read to its end", chunkSize: 2, delayMs: 20 });
    await send({ type: "testConnection" });
    expect(ofType("connectionTested")).toEqual([{ type: "connectionTested", provider: "anthropic", ok: true, text: "Connected: claude-sonnet-4-6 answered." }]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("Test connection right after a change reads the changed settings: the settings view's messages go in order", async () => {
    // A store that takes a while to write, as VS Code's settings.json does.
    const store = new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic", baseUrl: "http://127.0.0.1:2", modelId: "claude-sonnet-4-6" });
    const slow = Object.assign(Object.create(store) as MemorySettingsStore, {
      updateApiSettings: async (change: Parameters<MemorySettingsStore["updateApiSettings"]>[0]) => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await store.updateApiSettings(change);
      },
    });
    const quick = new WebviewSession({ post: (m) => posted.push(structuredClone(m)), host: new NodeHost(workspace), settings: slow, secrets, storageRoot: storage, openFile: async () => {} });
    try {
      await secrets.setApiKey("anthropic", SECRET);
      server.enqueue({ text: "OK" });
      const changed = quick.handle({ type: "updateApiSettings", settings: { baseUrl: server.anthropicBaseUrl } });
      await quick.handle({ type: "testConnection" });
      await changed;
      expect(ofType("connectionTested")).toEqual([{ type: "connectionTested", provider: "anthropic", ok: true, text: "Connected: claude-sonnet-4-6 answered." }]);
      expect(server.requests).toHaveLength(1);
    } finally {
      await quick.dispose();
    }
  });

  it("Test connection says what failed in words, and never shows the key", async () => {
    await secrets.setApiKey("anthropic", SECRET);
    server.enqueue({ kind: "fault", fault: "auth" });
    await send({ type: "testConnection" });
    const [result] = ofType("connectionTested");
    expect(result).toMatchObject({ ok: false, text: expect.stringMatching(/^Anthropic: the API key or the account was refused \(HTTP 401\)/) });
    expect(JSON.stringify(posted)).not.toContain(SECRET);
  });

  it("Test connection reports settings that cannot make a client, with no request", async () => {
    await send({ type: "updateApiSettings", settings: { provider: "vertex", modelId: "claude-sonnet-5-5" } });
    await send({ type: "testConnection" });
    expect(ofType("connectionTested")).toEqual([{ type: "connectionTested", provider: "vertex", ok: false, text: expect.stringContaining("Google Vertex AI needs the Google Cloud project") }]);
    expect(server.requests).toHaveLength(0);
    // The settings name what is missing, and no task starts until it is set.
    expect(ofType("settingsChanged").at(-1)?.settings.missingFields).toEqual(["vertexProjectId"]);
    await send({ type: "newTask", text: "hi", images: [] });
    expect(posted.at(-1)).toEqual({ type: "showView", view: "settings" });
  });

  it("no task starts on a provider with no default model until one is chosen: the settings view opens", async () => {
    await send({ type: "updateApiSettings", settings: { provider: "lmstudio", baseUrl: server.url } });
    await send({ type: "newTask", text: "hi", images: [] });
    expect(posted.at(-1)).toEqual({ type: "showView", view: "settings" });
    expect(ofType("settingsChanged").at(-1)?.settings.model).toEqual({ id: "", isDefault: true });
    expect(server.requests).toHaveLength(0);
  });

  it("Refresh reads the server's models and the settings carry them, read or failed", async () => {
    server.modelLists.setModels([{ id: "qwen3-coder:30b", contextLength: 262_144 }]);
    await send({ type: "updateApiSettings", settings: { provider: "ollama", baseUrl: server.url, modelId: "qwen3-coder:30b" } });
    posted = [];
    await send({ type: "refreshModels" });
    const [reading, read] = ofType("settingsChanged").map((m) => m.settings);
    expect(reading?.modelList?.reading).toBe(true);
    expect(read?.models.map((m) => m.id)).toEqual(["qwen3-coder:30b"]);
    expect(read?.contextWindow).toBe(262_144);
    expect(read?.model).toMatchObject({ id: "qwen3-coder:30b", catalogueId: "qwen3-coder:30b" });
  });
});
