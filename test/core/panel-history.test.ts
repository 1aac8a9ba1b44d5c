/**
 * What the panel says about saved tasks must be true: a task that finished opens from History as
 * completed (not cancelled, not "interrupted — resume?"), the History entry shows the very totals
 * the task header sums, a task reopened after a failed request keeps them, and the panel knows
 * whether a key is missing. Through the WebviewSession, with the real SDKs and the scripted server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { AskMessage } from "../../src/shared/messages";
import type { AnswerChoice, FromWebviewMessage, HistoryItem, ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import { ExtensionStore } from "../../webview-ui/src/state/extension-store";
import { historyProblems } from "../support/history-checks";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>", usage: { inputTokens: 300, outputTokens: 20, cacheReadTokens: 5_000, cacheWriteTokens: 700 } };

let server: ScriptedModelServer;
let workspace: string;
let storage: string;
let posted: ToWebviewMessage[];
let session: WebviewSession;
let secrets: MemorySecretStore;
let settings: MemorySettingsStore;

beforeEach(async () => {
  server = await startScriptedModelServer();
  workspace = await mkdtemp(join(tmpdir(), "tandem-history-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-history-store-"));
  posted = [];
  secrets = new MemorySecretStore();
  await secrets.setApiKey("anthropic", "sk-ant-test");
  settings = new MemorySettingsStore({ ...DEFAULT_AGENT_SETTINGS }, { provider: "anthropic", baseUrl: server.anthropicBaseUrl, modelId: "claude-sonnet-4-6" });
  session = new WebviewSession({
    post: (message) => posted.push(structuredClone(message)),
    host: new NodeHost(workspace),
    settings,
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
const messages = () => session.controller.messages;
/** The History list as the panel holds it, from what was posted to it. */
const history = (): readonly HistoryItem[] => {
  const panel = new ExtensionStore();
  for (const message of posted) if (message.type === "state" || message.type.startsWith("historyItem")) panel.apply(message);
  return panel.getState().history;
};
const entry = (id: string) => history().find((h) => h.id === id);

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The open question, once the task asks one. */
async function openAsk(kind: AskMessage["ask"]): Promise<AskMessage> {
  await until(() => session.controller.openQuestion?.kind === kind, `a "${kind}" question`);
  return messages().find((m) => m.ts === session.controller.openQuestion?.id) as AskMessage;
}

/** The person's answer to the open question, as the panel sends it. */
const answer = (choice: AnswerChoice, text?: string): FromWebviewMessage => ({
  type: "answer",
  answer: { questionId: session.controller.openQuestion?.id ?? -1, choice, ...(text ? { text } : {}) },
});

const said = (kind: string) => messages().filter((m) => m.type === "say" && m.say === kind);
const asked = (kind: string) => messages().filter((m) => m.type === "ask" && m.ask === kind);

async function finishedTask(): Promise<string> {
  server.enqueue(done);
  await send({ type: "newTask", text: "Write the report", images: [] });
  await openAsk("completion_result");
  return session.controller.currentTask?.taskId ?? "";
}

describe("a task that finished, opened again from History", () => {
  it.each([
    ["the person went to History with the result on screen", (): FromWebviewMessage[] => []],
    ["the person pressed Start New Task", (): FromWebviewMessage[] => [answer("accept"), { type: "clearTask" }]],
  ])("shows as completed when %s", async (_how, before) => {
    const id = await finishedTask();
    for (const message of before()) await send(message);
    await send({ type: "resumeTask", id });
    await openAsk("completion_result");
    expect(said("info").map((m) => m.text)).not.toContain("Task cancelled.");
    expect(asked("resume_task")).toHaveLength(0);
    expect(said("completion_result").map((m) => m.text)).toEqual(["Done."]);
    expect(asked("completion_result")).toHaveLength(1);
    expect(entry(id)?.status).toBe("completed");
    const conversation = JSON.stringify(session.controller.currentTask?.messages.apiHistory);
    expect(conversation).not.toMatch(/interrupted/i);
    expect(server.requests).toHaveLength(1);
    // Leaving it again changes nothing: it stays completed.
    await send({ type: "clearTask" });
    expect(entry(id)?.status).toBe("completed");
  });

  it("History says completed as soon as the result is shown, and running again while a reply is worked on", async () => {
    const id = await finishedTask();
    await until(() => entry(id)?.status === "completed", "History saying completed");
    // With the result on screen, the entry has the task's totals once its request is over.
    await until(() => entry(id)?.usage.tokensOut === 20, "History holding the totals");
    expect(entry(id)).toMatchObject({ usage: { tokensIn: 300, tokensOut: 20, cacheReads: 5_000, cacheWrites: 700 }, status: "completed" });
    // Streamed over about 3 s, so "running" lasts long enough to be seen on a loaded machine.
    server.enqueue({ text: "Adding it. ".repeat(30), chunkSize: 4, delayMs: 40 }, done);
    await send(answer("reply", "Add a title."));
    await until(() => entry(id)?.status === "running", "History saying running");
    await openAsk("completion_result");
    await until(() => entry(id)?.status === "completed", "History saying completed again");
  });

  it("a window reload with the result on screen keeps it completed", async () => {
    const id = await finishedTask();
    await session.controller.dispose();
    expect(entry(id)?.status).toBe("completed");
    expect(said("info")).toHaveLength(0);
  });

  it("a reply to the reopened task continues it with the reply", async () => {
    const id = await finishedTask();
    await send({ type: "clearTask" });
    await send({ type: "resumeTask", id });
    await openAsk("completion_result");
    server.enqueue(done);
    await send(answer("reply", "Also add a summary."));
    await openAsk("completion_result");
    expect(server.requests).toHaveLength(2);
    const sent = JSON.stringify(server.requests[1]?.body.messages);
    expect(sent).toContain("Also add a summary.");
    expect(sent).toContain("TASK REOPENED");
    const issues = historyProblems(session.controller.currentTask?.messages.apiHistory ?? []);
    expect(issues).toEqual([]);
  });

  it("a cancelled task is recorded as cancelled and asks to resume", async () => {
    server.enqueue({ text: "slow ".repeat(300), chunkSize: 5, delayMs: 5 }, done);
    await send({ type: "newTask", text: "Long job", images: [] });
    await until(() => said("text").length > 0, "streamed text");
    const id = session.controller.currentTask?.taskId ?? "";
    await send({ type: "cancelTask" });
    expect(entry(id)?.status).toBe("cancelled");
    const before = posted.length;
    await send({ type: "resumeTask", id });
    await openAsk("resume_task");
    // Replayed in order, the page holds the saved chat by the time the question is announced (it once showed over an empty chat).
    const panel = new ExtensionStore();
    for (const message of posted.slice(before)) {
      panel.apply(message);
      if (message.type === "questionChanged" && message.question) break;
    }
    const first = panel.messageAt(0);
    expect(first?.type === "say" && first.say === "task" && first.text).toBe("Long job");
  });
});

describe("token and cost totals", () => {
  it("the History entry shows what the task header sums", async () => {
    const read = { text: "<list_files>\n<path>.</path>\n</list_files>", usage: { inputTokens: 1_200, outputTokens: 40, cacheWriteTokens: 3_000, cacheReadTokens: 0 } };
    server.enqueue(read, done);
    await send({ type: "ready" });
    await send({ type: "updateAgentSettings", settings: { yolo: true } });
    await send({ type: "newTask", text: "Look around", images: [] });
    const id = session.controller.currentTask?.taskId ?? "";
    await openAsk("completion_result");
    await send({ type: "clearTask" });
    // The panel's own sums, from exactly what was posted to it.
    const panel = new ExtensionStore();
    for (const message of posted) if (message.type !== "taskChanged" || message.task) panel.apply(message);
    const header = panel.getState().totals;
    expect(header.cacheWrites).toBe(3_700);
    // One definition of each total: the entry holds exactly what the header shows.
    expect(entry(id)?.usage).toEqual(header);
  });

  it("a task reopened after a failed request keeps its totals in History", async () => {
    const read = { text: "<list_files>\n<path>.</path>\n</list_files>", usage: { inputTokens: 1_000, outputTokens: 50 } };
    server.enqueue(read, { kind: "fault", fault: "auth" });
    await send({ type: "updateAgentSettings", settings: { yolo: true } });
    await send({ type: "newTask", text: "Look around", images: [] });
    const id = session.controller.currentTask?.taskId ?? "";
    await openAsk("api_req_failed");
    await send(answer("stop"));
    await session.controller.waitForTask();
    expect(entry(id)).toMatchObject({ usage: { tokensIn: 1_000, tokensOut: 50 }, status: "failed" });
    const startedAt = entry(id)?.startedAt;

    await send({ type: "clearTask" });
    await send({ type: "resumeTask", id });
    await openAsk("resume_task");
    expect(entry(id)).toMatchObject({ usage: { tokensIn: 1_000, tokensOut: 50 }, startedAt, status: "failed" });
  });
});

describe("a missing key", () => {
  it("is known to the panel until one is saved, and a base URL makes none needed", async () => {
    await secrets.setApiKey("anthropic", "");
    await send({ type: "ready" });
    const last = () => posted.filter((m) => m.type === "state" || m.type === "settingsChanged").map((m) => (m.type === "state" ? m.state.settings : m.settings)).at(-1);
    expect(last()?.needsApiKey).toBe(true);
    await send({ type: "newTask", text: "Go", images: [] });
    expect(server.requests).toHaveLength(0);
    expect(posted.filter((m) => m.type === "showView").at(-1)).toEqual({ type: "showView", view: "settings" });
    await send({ type: "setApiKey", provider: "anthropic", apiKey: "sk-ant-new" });
    expect(last()?.needsApiKey).toBe(false);
    await send({ type: "updateApiSettings", settings: { provider: "openai", baseUrl: "" } });
    expect(last()?.needsApiKey).toBe(true);
    await send({ type: "updateApiSettings", settings: { baseUrl: server.openaiBaseUrl } });
    expect(last()?.needsApiKey).toBe(false);
  });
});

