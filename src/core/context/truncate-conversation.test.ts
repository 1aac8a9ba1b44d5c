import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../api/types";
import { truncateConversation } from "./truncate-conversation";

/** The task, then assistant/user pairs a1/u1, a2/u2 …, and, when `last`, the message being retried. */
function conversation(length: number): ApiMessage[] {
  return Array.from({ length }, (_, i): ApiMessage => (i === 0 ? { role: "user", content: "task" } : { role: i % 2 === 1 ? "assistant" : "user", content: `m${i}` }));
}
const names = (history: readonly ApiMessage[]) => history.map((m) => m.content);

describe("truncateConversation", () => {
  it("drops half of the middle by default, oldest first, keeping the task and the latest messages", () => {
    const history = conversation(10);
    const result = truncateConversation(history);
    expect(result.removed).toBe(4);
    expect(names(result.history)).toEqual(["task", "m5", "m6", "m7", "m8", "m9"]);
  });

  it("drops only the share asked for, so the middle of a long conversation survives a small cut", () => {
    expect(names(truncateConversation(conversation(10), 0.25).history)).toEqual(["task", "m3", "m4", "m5", "m6", "m7", "m8", "m9"]);
    // 9 droppable messages, three quarters: 6.75 rounded down to whole pairs is 6.
    expect(truncateConversation(conversation(11), 0.75)).toMatchObject({ removed: 6 });
    expect(names(truncateConversation(conversation(11), 0.75).history)).toEqual(["task", "m7", "m8", "m9", "m10"]);
    const long = conversation(102);
    const cut = truncateConversation(long, 0.5);
    expect(cut.removed).toBe(50);
    expect(cut.history).toHaveLength(52);
  });

  it("drops the whole middle only when asked to, never the task or the last message", () => {
    expect(names(truncateConversation(conversation(10), 1).history)).toEqual(["task", "m9"]);
    expect(names(truncateConversation(conversation(9), 1).history), "an odd middle keeps its newest message").toEqual(["task", "m7", "m8"]);
  });

  it("drops at least one pair when any can go, even for a tiny fraction", () => {
    const result = truncateConversation(conversation(4), 0.1);
    expect(result.removed).toBe(2);
    expect(names(result.history)).toEqual(["task", "m3"]);
    expect(truncateConversation(conversation(10), 0).removed).toBe(2);
  });

  it("keeps roles alternating: what follows the task is an assistant message, as before", () => {
    for (const length of [4, 5, 8, 13]) {
      const { history } = truncateConversation(conversation(length), 0.5);
      expect(history[1]?.role, `length ${length}`).toBe("assistant");
    }
  });

  it("changes nothing when no whole pair lies between the task and the last message", () => {
    for (const length of [0, 1, 2, 3]) {
      const history = conversation(length);
      const result = truncateConversation(history, 1);
      expect(result, `length ${length}`).toEqual({ history, removed: 0 });
      expect(result.history, "a copy, not the caller's array").not.toBe(history);
    }
  });

  it("leaves the caller's history as it was", () => {
    const history = conversation(10);
    const copy = [...history];
    truncateConversation(history, 1);
    expect(history).toEqual(copy);
  });
});
