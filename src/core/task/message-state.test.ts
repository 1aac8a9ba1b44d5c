import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TaskStorage } from "../storage/task-storage";
import { MessageState } from "./message-state";

const quiet = { onMessageAdded() {}, onMessageUpdated() {}, onMessagesRemoved() {} };
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("MessageState.addUserContent", () => {
  it("merges the next user turn into a trailing user message, as one recorded change", async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-state-"));
    const storage = new TaskStorage(dir, "t1");
    const state = new MessageState(quiet, storage, (error) => {
      throw error;
    });
    state.addUserContent([{ type: "text", text: "task" }]);
    state.addApiMessage({ role: "assistant", content: [{ type: "tool_use", id: "c1", name: "read_file", input: { path: "a" } }] });
    state.addApiMessage({ role: "user", content: [{ type: "tool_result", toolUseId: "c1", content: "alpha" }] });
    // A resumed task ends on its tool results: the resumption note joins them.
    state.addUserContent([{ type: "text", text: "[TASK RESUMPTION]" }]);
    expect(state.apiHistory.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(state.apiHistory[2]?.content).toEqual([
      { type: "tool_result", toolUseId: "c1", content: "alpha" },
      { type: "text", text: "[TASK RESUMPTION]" },
    ]);
    await state.flush();
    expect(await new TaskStorage(dir, "t1").loadApiHistory()).toEqual(state.apiHistory);
  });
});

describe("MessageState.close", () => {
  it("saves what was said, then neither records nor announces a late change (the task's folder may be gone)", async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-state-"));
    const announced: number[] = [];
    const listener = { onMessageAdded: (m: { ts: number }) => announced.push(m.ts), onMessageUpdated: (m: { ts: number }) => announced.push(m.ts), onMessagesRemoved() {} };
    const state = new MessageState(listener, new TaskStorage(dir, "t1"), (error) => {
      throw error;
    });
    state.add({ ts: 1, type: "say", say: "text", text: "before" });
    await state.close();
    await rm(dir, { recursive: true, force: true });
    state.add({ ts: 2, type: "say", say: "command_output", text: "late" });
    expect(state.update(1, (m) => (m.text = "changed"))).toBeUndefined();
    state.addApiMessage({ role: "user", content: "late" });
    await state.flush();
    expect(announced).toEqual([1]);
    expect(state.chatMessages.map((m) => m.text)).toEqual(["before"]);
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
  });
});
