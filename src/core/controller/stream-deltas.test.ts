import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/messages";
import { commonPrefixLength, StreamDeltas } from "./stream-deltas";

const text = (ts: number, value: string | undefined, partial = true): ChatMessage => ({ ts, type: "say", say: "text", text: value, partial });
const tool = (ts: number, content: string, partial = true): ChatMessage => ({
  ts,
  type: "say",
  say: "tool",
  tool: { tool: "write_to_file", path: "a.ts", content },
  partial,
});

describe("StreamDeltas", () => {
  it("posts what was appended to a streaming row's text or tool content", () => {
    const deltas = new StreamDeltas();
    deltas.added(text(1, "Hello"));
    deltas.added(tool(2, "const"));
    expect(deltas.updated(text(1, "Hello world"))).toEqual([{ type: "messageStreamed", ts: 1, field: "text", from: 5, text: " world" }]);
    expect(deltas.updated(tool(2, "const a = 1;"))).toEqual([{ type: "messageStreamed", ts: 2, field: "tool.content", from: 5, text: " a = 1;" }]);
    expect(deltas.updated(text(1, "Hello world!"))).toEqual([{ type: "messageStreamed", ts: 1, field: "text", from: 11, text: "!" }]);
  });

  it("keeps the exact common prefix when the tail was rewritten", () => {
    const deltas = new StreamDeltas();
    deltas.added(text(1, "Let me <read"));
    expect(deltas.updated(text(1, "Let me check"))).toEqual([{ type: "messageStreamed", ts: 1, field: "text", from: 7, text: "check" }]);
    expect(deltas.updated(text(1, "Let"))).toEqual([{ type: "messageStreamed", ts: 1, field: "text", from: 3, text: "" }]);
  });

  it("posts nothing for an update that changed nothing", () => {
    const deltas = new StreamDeltas();
    deltas.added(text(1, "same"));
    expect(deltas.updated(text(1, "same"))).toEqual([]);
  });

  it("sends the message without its streamed strings, and their deltas, when another field changed", () => {
    const deltas = new StreamDeltas();
    deltas.added(tool(1, "abc"));
    const moved: ChatMessage = { ...tool(1, "abcd"), tool: { tool: "write_to_file", path: "b.ts", content: "abcd" } };
    expect(deltas.updated(moved)).toEqual([
      { type: "messageStreamed", ts: 1, field: "tool.content", from: 3, text: "d" },
      { type: "messageUpdated", message: { ...moved, tool: { tool: "write_to_file", path: "b.ts", content: undefined } }, kept: ["tool.content"] },
    ]);
  });

  it("posts the whole message when a string appeared, or it never posted the row", () => {
    const deltas = new StreamDeltas();
    deltas.added(text(2, undefined));
    expect(deltas.updated(text(2, "now"))).toEqual([{ type: "messageUpdated", message: text(2, "now") }]);
    expect(deltas.updated(text(3, "unknown"))).toEqual([{ type: "messageUpdated", message: text(3, "unknown") }]);
  });

  it("leaves out a streamed file the page holds when the row becomes its question, and when it is answered", () => {
    const deltas = new StreamDeltas();
    const file = "x".repeat(10_000);
    deltas.added(tool(1, file.slice(0, 5)));
    deltas.updated(tool(1, file));
    const asked: ChatMessage = { ts: 1, type: "ask", ask: "tool", tool: { tool: "write_to_file", path: "a.ts", content: file } };
    const withoutFile = (m: ChatMessage) => ({ ...m, tool: { ...m.tool, content: undefined } });
    expect(deltas.updated(asked)).toEqual([{ type: "messageUpdated", message: withoutFile(asked), kept: ["tool.content"] }]);
    expect(deltas.size).toBe(1);
    const answered: ChatMessage = { ...asked, outcome: "yes" };
    expect(deltas.updated(answered)).toEqual([{ type: "messageUpdated", message: withoutFile(answered), kept: ["tool.content"] }]);
    // Answered: done, forgotten; a later update goes whole.
    expect(deltas.size).toBe(0);
    expect(deltas.updated(answered)).toEqual([{ type: "messageUpdated", message: answered }]);
  });

  it("posts the final update as a delta and the rest, then forgets the row", () => {
    const deltas = new StreamDeltas();
    deltas.added(text(1, "a"));
    deltas.added(text(2, "b"));
    expect(deltas.size).toBe(2);
    expect(deltas.updated(text(1, "ab", false))).toEqual([
      { type: "messageStreamed", ts: 1, field: "text", from: 1, text: "b" },
      { type: "messageUpdated", message: text(1, undefined, false), kept: ["text"] },
    ]);
    expect(deltas.size).toBe(1);
    deltas.removed([2]);
    expect(deltas.size).toBe(0);
    deltas.added(text(3, "c"));
    deltas.added(text(4, "done", false));
    deltas.reset();
    expect(deltas.size).toBe(0);
    // After a reset the page holds only what a state carried: the row goes whole again.
    expect(deltas.updated(text(3, "cd"))).toEqual([{ type: "messageUpdated", message: text(3, "cd") }]);
  });

  it("never splits a surrogate pair between the kept prefix and the appended text", () => {
    expect(commonPrefixLength("ab\ud83d", "ab\ud83d\ude00")).toBe(2);
    expect(commonPrefixLength("ab\ud83d\ude00", "ab\ud83d\ude01")).toBe(2);
    expect(commonPrefixLength("abc", "abd")).toBe(2);
    expect(commonPrefixLength("", "x")).toBe(0);
    expect(commonPrefixLength("abc", "abc")).toBe(3);
  });
});
