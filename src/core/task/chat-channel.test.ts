import { describe, expect, it } from "vitest";
import type { AskMessage } from "../../shared/messages";
import type { OpenQuestion } from "../../shared/protocol";
import { ChatChannel } from "./chat-channel";
import { MessageState } from "./message-state";

/** A channel over an in-memory chat; `answerAtOnce` answers each question as it is announced. */
function channel(answerAtOnce = false) {
  const messages = new MessageState({ onMessageAdded: () => {}, onMessageUpdated: () => {}, onMessagesRemoved: () => {} }, undefined, (error) => {
    throw error;
  });
  const shown: AskMessage[] = [];
  const report = (error: unknown) => {
    throw error;
  };
  const chat: ChatChannel = new ChatChannel(messages, async (fn) => fn(), () => false, report, {
    changed: (question: OpenQuestion | undefined) => {
      if (question && answerAtOnce) chat.answer(question.id, { type: "yes" });
    },
    shown: (row: AskMessage) => shown.push({ ...row }),
  });
  return { chat, messages, shown };
}

describe("a question's row shown (questionShown)", () => {
  it("is told once per question, with its row, while it waits", async () => {
    const { chat, shown } = channel();
    const answer = chat.ask("command", "npm test");
    await Promise.resolve();
    expect(shown.map((row) => `${row.ask}:${row.text}`)).toEqual(["command:npm test"]);
    chat.answer(chat.openQuestion!.id, { type: "yes" });
    expect(await answer).toEqual({ type: "yes" });
    expect(shown).toHaveLength(1);
  });

  it("a streamed tool preview that becomes the question is told as the question", async () => {
    const { chat, shown } = channel();
    await chat.say("tool", "", { partial: true, tool: { tool: "write_to_file", path: "a.txt" } });
    void chat.ask("tool", "", { tool: { tool: "write_to_file", path: "a.txt" } });
    await Promise.resolve();
    expect(shown).toMatchObject([{ type: "ask", ask: "tool", tool: { path: "a.txt" } }]);
  });

  it("not when a listener answered it as it opened: nobody waits", async () => {
    const { chat, shown } = channel(true);
    expect(await chat.ask("completion_result", "")).toEqual({ type: "yes" });
    expect(shown).toEqual([]);
  });
});
