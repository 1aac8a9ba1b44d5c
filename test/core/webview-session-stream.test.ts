/**
 * What the panel receives while rows stream: the WebviewSession posts a streaming row's growth as
 * `messageStreamed` deltas, so a streamed file costs about its size, not its size once per chunk.
 * Every post is replayed into the webview's own store, which must end (and, for text, stay at
 * every step) exactly as the host's chat.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemorySecretStore, MemorySettingsStore } from "../../src/core/controller/stores";
import { WebviewSession } from "../../src/core/controller/webview-session";
import { NodeHost } from "../../src/host/node/node-host";
import type { ChatMessage } from "../../src/shared/messages";
import type { ToWebviewMessage } from "../../src/shared/protocol";
import { DEFAULT_AGENT_SETTINGS, DEFAULT_AUTO_APPROVAL } from "../../src/shared/settings";
import { ExtensionStore } from "../../webview-ui/src/state/extension-store";
import { goOn } from "../support/go-on";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server";

const done = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

let server: ScriptedModelServer;
let workspace: string;
let storage: string;
let session: WebviewSession;
/** The open page: every post goes to it, as the outbox delivers them. */
let page: ExtensionStore;
let posted: ToWebviewMessage[];
let onPost: (message: ToWebviewMessage) => void;

beforeEach(async () => {
  server = await startScriptedModelServer();
  workspace = await mkdtemp(join(tmpdir(), "tandem-stream-ws-"));
  storage = await mkdtemp(join(tmpdir(), "tandem-stream-store-"));
  page = new ExtensionStore();
  posted = [];
  onPost = () => {};
  const secrets = new MemorySecretStore();
  await secrets.setApiKey("anthropic", "test-key");
  session = new WebviewSession({
    post: (live) => {
      const message = structuredClone(live);
      posted.push(message);
      page.apply(message);
      onPost(message);
      // The person goes on at every question, through the protocol.
      const { question } = message.type === "questionChanged" ? message : {};
      if (question) setImmediate(() => void session.handle(goOn(question)));
    },
    host: new NodeHost(workspace),
    settings: new MemorySettingsStore(
      { ...DEFAULT_AGENT_SETTINGS, autoApproval: { ...DEFAULT_AUTO_APPROVAL, editFiles: true } },
      { provider: "anthropic", baseUrl: server.anthropicBaseUrl, modelId: "claude-sonnet-4-6" },
    ),
    secrets,
    storageRoot: storage,
    openFile: async () => {},
    controllerOptions: { retry: { baseDelayMs: 5, maxDelayMs: 10 }, partialUpdateIntervalMs: 5 },
  });
  await session.handle({ type: "ready" });
});

afterEach(async () => {
  await session.dispose();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(storage, { recursive: true, force: true });
});

const size = (m: ToWebviewMessage) => Buffer.byteLength(JSON.stringify(m));

function pageMessages(store: ExtensionStore): ChatMessage[] {
  return Array.from({ length: store.getState().messageCount }, (_, i) => store.messageAt(i) as ChatMessage);
}

/** What the host's chat holds, as plain data (the Task mutates its messages in place). */
function hostMessages(): ChatMessage[] {
  return structuredClone([...session.controller.messages]);
}

function sourceFile(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0, length = 0; length < bytes; i++) {
    const line = `export const value_${i} = compute(${i}, "item-${i % 97}"); // keeps a < b`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

async function run(prompt: string): Promise<void> {
  await session.newTask(prompt);
  expect(await session.controller.waitForTask()).toBe("completed");
}

describe("WebviewSession streaming", () => {
  it("posts a 200 KB write_to_file streamed through the whole Task in under 3 bytes per byte of the file", async () => {
    const file = sourceFile(200 * 1024);
    // The server's default 16-character chunks: 12,800 of them.
    server.enqueue({ text: `Writing it.\n<write_to_file>\n<path>big.ts</path>\n<content>\n${file}</content>\n</write_to_file>` }, done);
    await run("Write big.ts");

    expect(await readFile(join(workspace, "big.ts"), "utf8")).toBe(file);
    const bytes = posted.reduce((sum, m) => sum + size(m), 0);
    const streamed = posted.filter((m) => m.type === "messageStreamed").length;
    console.log(`200 KB file: ${posted.length} posts (${streamed} deltas), ${(bytes / file.length).toFixed(2)} bytes posted per byte of file`);
    expect(bytes).toBeLessThan(3 * file.length);
    expect(pageMessages(page)).toEqual(hostMessages());
  });

  it("posts a row updated 800 times in under 3 bytes per byte, however often the Task updates it", () => {
    const file = sourceFile(200 * 1024);
    const row = (content: string, partial: boolean): ChatMessage => ({ ts: 42, type: "say", say: "tool", tool: { tool: "write_to_file", path: "big.ts", content }, partial });
    posted = [];
    // As the Task's chat announces them: through the Controller's events, which the session hears.
    const chat = session.controller.events.chatListener(() => {});
    chat.onMessageAdded(row("", true));
    for (let end = 256; end < file.length; end += 256) chat.onMessageUpdated(row(file.slice(0, end), true));
    chat.onMessageUpdated(row(file, false));

    const bytes = posted.reduce((sum, m) => sum + size(m), 0);
    expect(bytes).toBeLessThan(3 * file.length);
    expect(posted.filter((m) => m.type === "messageStreamed").length).toBeGreaterThan(700);
    expect(page.getMessage(42)).toEqual(row(file, false));
  });

  it("keeps the page's text row equal to the host's at every step", async () => {
    const text = "Plan: compare <b>bold</b> and a < b, then <thinking>private</thinking> report.\n".repeat(40);
    const mismatches: string[] = [];
    let checked = 0;
    onPost = (message) => {
      if (message.type !== "messageStreamed" && message.type !== "messageUpdated") return;
      const ts = message.type === "messageStreamed" ? message.ts : message.message.ts;
      const host = session.controller.messages.find((m) => m.ts === ts);
      if (page.getMessage(ts)?.text !== host?.text) mismatches.push(`after ${message.type} of ${ts}`);
      checked++;
    };
    server.enqueue({ text: text + done.text, chunkSize: 3, delayMs: 1 });
    await run("Report");

    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(20);
    expect(posted.filter((m) => m.type === "messageStreamed" && m.field === "text").length).toBeGreaterThan(10);
    expect(pageMessages(page)).toEqual(hostMessages());
  });

  it("sends a page that loads mid-stream the whole state, then deltas it can apply", async () => {
    const file = sourceFile(40 * 1024);
    let reloaded = false;
    onPost = (message) => {
      if (reloaded || message.type !== "messageStreamed" || message.field !== "tool.content" || message.from < 10_000) return;
      reloaded = true;
      page = new ExtensionStore(); // the old page is gone; the new one says "ready"
      void session.handle({ type: "ready" });
    };
    server.enqueue({ text: `<write_to_file>\n<path>mid.ts</path>\n<content>\n${file}</content>\n</write_to_file>`, chunkSize: 64, delayMs: 1 }, done);
    await run("Write mid.ts");

    expect(reloaded).toBe(true);
    expect(page.getState().hydrated).toBe(true);
    expect(pageMessages(page)).toEqual(hostMessages());
  });
});
