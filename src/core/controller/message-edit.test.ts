import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../api/types";
import type { ChatMessage } from "../../shared/messages";
import { editPoint } from "./message-edit";

const request = (ts: number, sent: number, cost = 0.01): ChatMessage => ({ ts, type: "say", say: "api_req_started", apiRequest: { tokensIn: 100, tokensOut: 10, cacheWrites: 0, cacheReads: 0, cost, sent: { messages: sent, lastBlocks: 1 }, outcome: "completed" } });
const person = (ts: number, say: "task" | "user_feedback", text: string, messages: number | undefined, checkpoint?: string): ChatMessage => ({
  ts,
  type: "say",
  say,
  text,
  ...(messages === undefined ? {} : { conversationAt: { messages, lastBlocks: 1 } }),
  ...(checkpoint ? { checkpoint: { hash: checkpoint, apiMessages: 1 } } : {}),
});
const say = (ts: number, kind: "text" | "checkpoint_created" | "context_condensed", checkpoint?: string): ChatMessage => ({
  ts,
  type: "say",
  say: kind,
  text: kind,
  ...(checkpoint ? { checkpoint: { hash: checkpoint, apiMessages: 3 } } : {}),
});
const ask = (ts: number): ChatMessage => ({ ts, type: "ask", ask: "completion_result", text: "", outcome: "message" });

const user = (text: string): ApiMessage => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string): ApiMessage => ({ role: "assistant", content: [{ type: "tool_use", id, name: "write_to_file", input: {} }] });
const result = (id: string): ApiMessage => ({ role: "user", content: [{ type: "tool_result", toolUseId: id, content: "ok" }] });

/** A task: round 1 writes (checkpoint B), round 2 presents its result, the person replies, round 3 writes (checkpoint C) and completes. */
function finishedTask(): { chat: ChatMessage[]; api: ApiMessage[] } {
  const chat: ChatMessage[] = [
    person(1, "task", "Write a.txt", 0, "A"),
    request(2, 1),
    say(3, "text"),
    say(4, "checkpoint_created", "B"),
    request(5, 3),
    ask(6),
    person(7, "user_feedback", "Also b.txt", 5),
    request(8, 5),
    say(9, "checkpoint_created", "C"),
    request(10, 7),
  ];
  const api = [user("task"), call("w1"), result("w1"), call("done1"), { ...result("done1"), content: [{ type: "tool_result" as const, toolUseId: "done1", content: "" }, { type: "text" as const, text: "Also b.txt" }] }, call("w2"), result("w2"), call("done2"), result("done2")];
  return { chat, api };
}

describe("editPoint", () => {
  it("takes a reply said between rounds back to the moment it was said, with the files of the checkpoint before it", () => {
    const saved = finishedTask();
    const point = editPoint(saved, 7);
    expect(point.chat.map((row) => row.ts)).toEqual([1, 2, 3, 4, 5, 6]);
    // The reply itself had gone into the result's message: it is left out of it.
    expect(point.api).toEqual([...saved.api.slice(0, 4), { role: "user", content: [{ type: "tool_result", toolUseId: "done1", content: "" }] }]);
    expect(point).toMatchObject({ first: false, filesAt: "B", laterChanges: true });
    // The two requests after it were billed: the row that keeps them comes where the reply was.
    expect(point.spent).toMatchObject({ ts: 7, say: "checkpoint_restored", editedMessage: true, removedRequests: { requests: 2 } });
    expect(point.spent?.removedRequests?.cost).toBeCloseTo(0.02);
  });

  it("leaves out of the kept conversation the words merged later into its last message", () => {
    // A completed task, reopened with a reply: the reply went into the results' message as a block of its own.
    const chat: ChatMessage[] = [person(1, "task", "t", 0, "A"), request(2, 1), ask(3), person(4, "user_feedback", "Also b.txt", 3), request(5, 3)];
    const merged: ApiMessage = { role: "user", content: [{ type: "tool_result", toolUseId: "done", content: "" }, { type: "text", text: "<feedback>Also b.txt</feedback>" }] };
    const api = [user("task"), call("done"), merged, call("w")];
    const point = editPoint({ chat, api }, 4);
    expect(point.api).toEqual([user("task"), call("done"), { role: "user", content: [{ type: "tool_result", toolUseId: "done", content: "" }] }]);
    expect(JSON.stringify(point.api)).not.toContain("Also b.txt");
    expect(point.chat.map((row) => row.ts)).toEqual([1, 2, 3]);
  });

  it("takes a message said while a round ran back to that round's request, which is asked again", () => {
    const chat: ChatMessage[] = [person(1, "task", "t", 0, "A"), request(2, 1), say(3, "text"), person(4, "user_feedback", "no, not that", 1), request(5, 3)];
    const api = [user("task"), call("w1"), result("w1")];
    const point = editPoint({ chat, api }, 4);
    expect(point.chat.map((row) => row.ts)).toEqual([1]);
    expect(point.api).toEqual([user("task")]);
    expect(point.spent).toMatchObject({ ts: 2, removedRequests: { requests: 2 } });
    expect(point.filesAt).toBe("A");
  });

  it("drops an answer whose tool calls have no results yet, and its request with it", () => {
    const chat: ChatMessage[] = [person(1, "task", "t", 0, "A"), request(2, 1), say(3, "text"), person(4, "user_feedback", "go on", 2)];
    const api = [user("task"), call("w1")];
    const point = editPoint({ chat, api }, 4);
    expect(point.api).toEqual([user("task")]);
    expect(point.chat.map((row) => row.ts)).toEqual([1]);
  });

  it("takes the first message back to the start: nothing is kept but the money, behind the task's own row", () => {
    const saved = finishedTask();
    const point = editPoint(saved, 1);
    expect(point).toMatchObject({ first: true, chat: [], api: [], filesAt: "A", laterChanges: true });
    expect(point.spent).toMatchObject({ ts: 2, removedRequests: { requests: 4 } });
  });

  it("refuses what is not the person's message, a message saved without its place, and one before a shortened conversation", () => {
    const saved = finishedTask();
    expect(() => editPoint(saved, 3)).toThrow("Only your own messages can be edited.");
    expect(() => editPoint(saved, 99)).toThrow("Only your own messages can be edited.");
    const older = { ...saved, chat: saved.chat.map((row) => (row.ts === 7 ? { ...row, conversationAt: undefined } : row)) };
    expect(() => editPoint(older, 7)).toThrow(/earlier version of Tandem/);
    const beyond = { ...saved, chat: saved.chat.map((row) => (row.ts === 7 ? { ...row, conversationAt: { messages: 50, lastBlocks: 1 } } : row)) };
    expect(() => editPoint(beyond, 7)).toThrow(/earlier version of Tandem/);
    const condensed = { ...saved, chat: [...saved.chat, say(11, "context_condensed")] };
    expect(() => editPoint(condensed, 7)).toThrow(/shortened to fit the context window/);
    // The first message of a condensed task can still be edited: nothing before it is kept.
    expect(editPoint(condensed, 1).first).toBe(true);
  });

  it("has no files to offer without checkpoints, and keeps no row when no request came after", () => {
    const chat: ChatMessage[] = [person(1, "task", "t", 0), request(2, 1), ask(3), person(4, "user_feedback", "later", 3)];
    const api = [user("task"), call("done"), result("done")];
    const point = editPoint({ chat, api }, 4);
    expect(point).toMatchObject({ filesAt: undefined, laterChanges: false, spent: undefined });
    expect(point.chat.map((row) => row.ts)).toEqual([1, 2, 3]);
  });
});
