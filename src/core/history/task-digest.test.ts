import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/messages";
import { DIGEST_LIMITS, MODEL_MARK, PERSON_MARK, taskDigest } from "./task-digest";

const say = (ts: number, kind: string, text: string, extra: Partial<ChatMessage> = {}) => ({ ts, type: "say", say: kind, text, ...extra }) as ChatMessage;
const ask = (ts: number, kind: string, text: string) => ({ ts, type: "ask", ask: kind, text }) as ChatMessage;

describe("a task's digest", () => {
  it("keeps what the person wrote and the model's words, one line each, and leaves tools, output and reasoning out", () => {
    const chat = [
      say(1, "task", "Make the\nbuild faster"),
      say(2, "api_req_started", "{}"),
      say(3, "reasoning", "secret thoughts"),
      say(4, "text", "Looking at the bundler."),
      say(5, "tool", "", { tool: { tool: "read_file", path: "esbuild.mjs", content: "file contents" } }),
      say(6, "command_output", "lots of output"),
      ask(7, "followup", "Keep the source maps?"),
      say(8, "user_feedback", "Yes, keep them"),
      say(9, "text", "still streaming", { partial: true }),
      say(10, "completion_result", "The build takes 3 s now."),
    ];
    expect(taskDigest(chat).split("\n")).toEqual([
      `${PERSON_MARK}Make the build faster`,
      `${MODEL_MARK}Looking at the bundler.`,
      `${MODEL_MARK}Keep the source maps?`,
      `${PERSON_MARK}Yes, keep them`,
      `${MODEL_MARK}The build takes 3 s now.`,
    ]);
  });

  it("stays within its bounds however long the task", () => {
    const chat = Array.from({ length: 200 }, (_, i) => say(i, i % 2 ? "text" : "user_feedback", `word${i} `.repeat(400)));
    const digest = taskDigest(chat);
    expect(digest.length).toBeLessThanOrEqual(DIGEST_LIMITS.person + DIGEST_LIMITS.model + 200);
    const lines = digest.split("\n");
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(DIGEST_LIMITS.personMessage + 1);
    expect(lines.filter((line) => line.startsWith(MODEL_MARK)).every((line) => line.length <= DIGEST_LIMITS.modelMessage + 1)).toBe(true);
  });
});
