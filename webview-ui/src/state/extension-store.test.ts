import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/shared/messages";
import { ask, makeSettings, makeState, say, TASK } from "../test-support/fixtures";
import { ExtensionStore } from "./extension-store";

function apiReq(ts: number, tokensIn: number, tokensOut: number, cost: number, cache = { reads: 0, writes: 0 }): ChatMessage {
  return say("api_req_started", ts, { apiRequest: { tokensIn, tokensOut, cacheReads: cache.reads, cacheWrites: cache.writes, cost } });
}

function loaded(messages: ChatMessage[] = []): ExtensionStore {
  const store = new ExtensionStore();
  store.apply({ type: "state", state: makeState({ task: TASK, running: true, messages }) });
  return store;
}

describe("ExtensionStore (the ToWebviewMessage reducer)", () => {
  it("replaces everything on `state`", () => {
    const store = loaded([say("text", 1, { text: "old" })]);
    store.apply({ type: "state", state: makeState({ task: undefined, running: false, messages: [say("text", 5, { text: "new" })] }) });
    const state = store.getState();
    expect(state.hydrated).toBe(true);
    expect(state.task).toBeUndefined();
    expect(state.running).toBe(false);
    expect(state.messageCount).toBe(1);
    expect(store.getMessage(1)).toBeUndefined();
    expect(store.getMessage(5)?.text).toBe("new");
  });

  it("appends on messageAdded and replaces exactly one message by ts on messageUpdated", () => {
    const store = loaded([say("text", 1, { text: "a" }), say("text", 2, { text: "b" })]);
    store.apply({ type: "messageAdded", message: say("text", 3, { text: "c", partial: true }) });
    const untouched = store.getMessage(1);
    store.apply({ type: "messageUpdated", message: say("text", 2, { text: "b2" }) });
    expect(store.getState().messageCount).toBe(3);
    expect([0, 1, 2].map((i) => store.messageAt(i)?.text)).toEqual(["a", "b2", "c"]);
    expect(store.getMessage(1)).toBe(untouched);
  });

  it("tells only the updated message's subscribers, and keeps the list version for updates", () => {
    const store = loaded([say("text", 1, { text: "a" }), say("text", 2, { text: "b" })]);
    const calls: number[] = [];
    store.subscribeMessage(1, () => calls.push(1));
    store.subscribeMessage(2, () => calls.push(2));
    const version = store.getState().listVersion;
    store.apply({ type: "messageUpdated", message: say("text", 2, { text: "b2" }) });
    expect(calls).toEqual([2]);
    expect(store.getState().listVersion).toBe(version);
    store.apply({ type: "messageAdded", message: say("text", 3) });
    expect(store.getState().listVersion).toBe(version + 1);
  });

  it("appends a messageUpdated for a timestamp it has not seen rather than dropping it", () => {
    const store = loaded([]);
    store.apply({ type: "messageUpdated", message: say("text", 9, { text: "late" }) });
    expect(store.getMessage(9)?.text).toBe("late");
    expect(store.messageAt(store.getState().messageCount - 1)?.ts).toBe(9);
  });

  it("removes messages by timestamp and keeps the index right for later updates", () => {
    const store = loaded([1, 2, 3, 4].map((ts) => say("text", ts, { text: String(ts) })));
    store.apply({ type: "messagesRemoved", timestamps: [2, 3] });
    expect(store.getState().messageCount).toBe(2);
    store.apply({ type: "messageUpdated", message: say("text", 4, { text: "four" }) });
    expect([store.messageAt(0)?.text, store.messageAt(1)?.text]).toEqual(["1", "four"]);
    expect(store.messageAt(1)?.text).toBe("four");
  });

  it("sums tokens and cost over api_req_started messages as they stream, and tracks the context", () => {
    const store = loaded([apiReq(1, 100, 10, 0.01), say("text", 2)]);
    store.apply({ type: "messageAdded", message: apiReq(3, 0, 0, 0) });
    // A fresh request with no usage yet leaves the context gauge at the last request that had some.
    expect(store.getState().contextTokens).toBe(110);
    store.apply({ type: "messageUpdated", message: apiReq(3, 200, 5, 0.02, { reads: 50, writes: 7 }) });
    store.apply({ type: "messageUpdated", message: apiReq(3, 200, 40, 0.03, { reads: 50, writes: 7 }) });
    const { totals, contextTokens } = store.getState();
    expect(totals).toMatchObject({ tokensIn: 300, tokensOut: 50, cacheReads: 50, cacheWrites: 7 });
    expect(totals.cost).toBeCloseTo(0.04, 10);
    expect(contextTokens).toBe(200 + 50 + 7 + 40);
    store.apply({ type: "messagesRemoved", timestamps: [3] });
    expect(store.getState().totals.tokensIn).toBe(100);
    expect(store.getState().contextTokens).toBe(110);
  });

  it("does linear work for 3,000 messages and 1,000 streamed updates", () => {
    const store = loaded([]);
    const before = store.listOperations;
    for (let ts = 1; ts <= 3000; ts++) store.apply({ type: "messageAdded", message: say("text", ts, { text: `m${ts}` }) });
    for (let i = 0; i < 1000; i++) {
      const ts = 1 + ((i * 7) % 3000);
      store.apply({ type: "messageUpdated", message: say("text", ts, { text: `u${i}` }) });
    }
    const work = store.listOperations - before;
    // Two writes per append (slot and index) and one per update. Copying the list per update
    // would be about 3,000,000.
    expect(work).toBeLessThanOrEqual(2 * 3000 + 1000);
    expect(store.getState().messageCount).toBe(3000);
    expect(store.getMessage(1 + ((999 * 7) % 3000))?.text).toBe("u999");
    expect(store.messageAt(2999)?.ts).toBe(3000);
  });

  it("applies messageStreamed deltas to a row's text and tool content, keeping `from` characters", () => {
    const tool = { tool: "write_to_file", path: "a.ts", content: "const a" };
    const store = loaded([say("text", 1, { text: "Hello", partial: true }), say("tool", 2, { tool, partial: true })]);
    store.apply({ type: "messageStreamed", ts: 1, field: "text", from: 5, text: " world" });
    store.apply({ type: "messageStreamed", ts: 2, field: "tool.content", from: 7, text: " = 1;" });
    expect(store.getMessage(1)?.text).toBe("Hello world");
    expect(store.getMessage(2)?.tool).toEqual({ tool: "write_to_file", path: "a.ts", content: "const a = 1;" });
    // A rewritten tail: keep 6 characters ("Hello "), then append.
    store.apply({ type: "messageStreamed", ts: 1, field: "text", from: 6, text: "there" });
    expect(store.getMessage(1)).toEqual(say("text", 1, { text: "Hello there", partial: true }));
    expect(store.messageAt(1)?.tool?.content).toBe("const a = 1;");
  });

  it("tells only the streamed row's subscribers and replaces its object, so React sees the change", () => {
    const store = loaded([say("text", 1, { text: "a" }), say("text", 2, { text: "b", partial: true })]);
    const calls: number[] = [];
    store.subscribeMessage(1, () => calls.push(1));
    store.subscribeMessage(2, () => calls.push(2));
    const before = store.getMessage(2);
    const version = store.getState().listVersion;
    store.apply({ type: "messageStreamed", ts: 2, field: "text", from: 1, text: "c" });
    expect(calls).toEqual([2]);
    expect(store.getMessage(2)).not.toBe(before);
    expect(before?.text).toBe("b");
    expect(store.getState().listVersion).toBe(version);
  });

  it("ignores a delta for a row it does not hold (a new page before its state)", () => {
    const store = new ExtensionStore();
    store.apply({ type: "messageStreamed", ts: 7, field: "text", from: 0, text: "orphan" });
    store.apply({ type: "messageStreamed", ts: 7, field: "tool.content", from: 0, text: "orphan" });
    expect(store.getState().messageCount).toBe(0);
    store.apply({ type: "state", state: makeState({ task: TASK, messages: [say("text", 7, { text: "whole", partial: true })] }) });
    expect(store.getMessage(7)?.text).toBe("whole");
  });

  it("keeps the streamed strings a messageUpdated leaves out (kept), and takes every other field", () => {
    const store = loaded([say("tool", 1, { text: "note", tool: { tool: "write_to_file", path: "a.ts", content: "big file" }, partial: true })]);
    store.apply({ type: "messageUpdated", message: ask("tool", 1, { tool: { tool: "write_to_file", path: "a.ts" } }), kept: ["tool.content", "text"] });
    expect(store.getMessage(1)).toMatchObject({ type: "ask", ask: "tool", text: "note", tool: { path: "a.ts", content: "big file" } });
    store.apply({ type: "messageUpdated", message: ask("tool", 9, {}), kept: ["text"] });
    expect(store.getMessage(9)).toBeUndefined();
  });

  it("streams a 1 MB row in 16-character deltas with one list write per delta", () => {
    const store = loaded([say("tool", 1, { tool: { tool: "write_to_file", path: "big.ts", content: "" }, partial: true })]);
    const before = store.listOperations;
    const chunk = "0123456789abcdef";
    const count = (1024 * 1024) / chunk.length;
    for (let i = 0; i < count; i++) store.apply({ type: "messageStreamed", ts: 1, field: "tool.content", from: i * chunk.length, text: chunk });
    expect(store.listOperations - before).toBe(count);
    expect(store.getMessage(1)?.tool?.content).toBe(chunk.repeat(count));
  });

  it("clears the messages when the task changes to another one or to none", () => {
    const store = loaded([say("text", 1)]);
    store.apply({ type: "taskChanged", task: TASK });
    expect(store.getState().messageCount).toBe(1);
    store.apply({ type: "taskChanged", task: { ...TASK, id: "task-2" } });
    expect(store.getState().messageCount).toBe(0);
    expect(store.getState().task?.id).toBe("task-2");
  });

  it("applies the remaining message types", () => {
    const store = loaded([ask("followup", 1)]);
    store.apply({ type: "taskRunning", running: false });
    store.apply({ type: "settingsChanged", settings: makeSettings({ contextWindow: 42 }) });
    store.apply({ type: "historyItemChanged", item: { ...TASK, usage: { cost: 1, tokensIn: 2, tokensOut: 3, cacheReads: 0, cacheWrites: 0 } } });
    store.apply({ type: "showView", view: "settings" });
    store.apply({ type: "insertText", text: "selection" });
    store.apply({ type: "notice", level: "error", text: "bad key" });
    const state = store.getState();
    expect(state.running).toBe(false);
    expect(state.settings?.contextWindow).toBe(42);
    expect(state.history).toHaveLength(1);
    expect(state.view).toBe("settings");
    expect(state.inputRequest).toMatchObject({ kind: "insert", text: "selection" });
    expect(state.notice).toMatchObject({ level: "error", text: "bad key" });
    store.apply({ type: "focusInput" });
    expect(store.getState().inputRequest?.kind).toBe("focus");
  });

  it("keeps one notice: a newer one replaces it, dismissing clears it, and a new task clears it", () => {
    const store = loaded([say("text", 2)]);
    store.apply({ type: "notice", level: "info", text: "Restored 1 file and deleted 0 files added since." });
    store.apply({ type: "notice", level: "info", text: "No file differs from that checkpoint." });
    expect(store.getState().notice).toMatchObject({ text: "No file differs from that checkpoint." });
    store.dismissNotice(store.getState().notice?.id ?? -1);
    expect(store.getState().notice).toBeUndefined();
    store.apply({ type: "notice", level: "warning", text: "older" });
    // A restore takes the task away and brings it back under its own id: a notice after it stays.
    store.apply({ type: "taskChanged", task: undefined });
    store.apply({ type: "taskChanged", task: TASK });
    store.apply({ type: "notice", level: "info", text: "Restored 2 files." });
    store.apply({ type: "taskChanged", task: TASK });
    expect(store.getState().notice).toMatchObject({ text: "Restored 2 files." });
    store.apply({ type: "taskChanged", task: { ...TASK, id: "task-2" } });
    expect(store.getState().notice).toBeUndefined();
  });

  it("is restoring from its first paint when the page says so, until the host says it is over", () => {
    const store = new ExtensionStore({ restoring: true });
    expect(store.getState().restoring).toBe(true);
    store.apply({ type: "state", state: makeState({ restoring: true }) });
    expect(store.getState().restoring).toBe(true);
    store.apply({ type: "restoring", restoring: false });
    expect(store.getState().restoring).toBe(false);
    expect(new ExtensionStore().getState().restoring).toBe(false);
  });

  it("rejects a message type it does not know with a clear error", () => {
    const store = new ExtensionStore();
    expect(() => store.apply({ type: "bogus" } as never)).toThrow(/unknown message type "bogus"/);
  });
});
