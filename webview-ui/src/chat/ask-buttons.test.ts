import { describe, expect, it } from "vitest";
import { ASK_KINDS } from "../state/message-kinds";
import { actionMessages, askButtons } from "./ask-buttons";

const EMPTY = { text: "", images: [] };

describe("askButtons", () => {
  it("offers Cline's buttons for every ask kind", () => {
    const labels = Object.fromEntries(ASK_KINDS.map((kind) => [kind, askButtons({ ask: kind, options: ["A", "B"] }).map((b) => b.label)]));
    expect(labels).toEqual({
      followup: ["A", "B"],
      tool: ["Approve", "Reject"],
      command: ["Run", "Reject"],
      command_output: ["Proceed While Running"],
      completion_result: ["Start New Task"],
      api_req_failed: ["Retry", "Start New Task"],
      mistake_limit_reached: ["Proceed Anyway", "Start New Task"],
      new_task: ["Start New Task with this context", "Decline"],
      resume_task: ["Resume Task"],
    });
  });

  it("sends yes, no, clearTask after no, and followup options as messages", () => {
    const [approve, reject] = askButtons({ ask: "tool" });
    expect(actionMessages(approve!.action, EMPTY).messages).toEqual([{ type: "askResponse", response: { type: "yes" } }]);
    expect(actionMessages(reject!.action, EMPTY).messages).toEqual([{ type: "askResponse", response: { type: "no" } }]);
    const [, startNew] = askButtons({ ask: "api_req_failed" });
    expect(actionMessages(startNew!.action, EMPTY).messages).toEqual([
      { type: "askResponse", response: { type: "no" } },
      { type: "clearTask" },
    ]);
    const [option] = askButtons({ ask: "followup", options: ["Use tabs"] });
    expect(actionMessages(option!.action, { text: "ignored", images: [] })).toEqual({
      messages: [{ type: "askResponse", response: { type: "message", text: "Use tabs" } }],
      consumedInput: false,
    });
  });

  it("lets Reject carry the input box as feedback, and only buttons that take input consume it", () => {
    const [, reject] = askButtons({ ask: "command" });
    expect(actionMessages(reject!.action, { text: "  use pnpm  ", images: ["data:image/png;base64,AA"] })).toEqual({
      messages: [{ type: "askResponse", response: { type: "no", text: "use pnpm", images: ["data:image/png;base64,AA"] } }],
      consumedInput: true,
    });
    const [retry] = askButtons({ ask: "api_req_failed" });
    expect(actionMessages(retry!.action, { text: "hello", images: [] })).toEqual({
      messages: [{ type: "askResponse", response: { type: "yes" } }],
      consumedInput: false,
    });
  });
});
