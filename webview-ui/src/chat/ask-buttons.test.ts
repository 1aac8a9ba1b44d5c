import { describe, expect, it } from "vitest";
import type { AskKind } from "../../../src/shared/messages";
import { ASK_KINDS } from "../state/message-kinds";
import { ask, questionOf } from "../test-support/fixtures";
import { actionMessages, askButtons, takesReply } from "./ask-buttons";

const EMPTY = { text: "", images: [] };
const question = (kind: AskKind, extra = {}) => questionOf(ask(kind, 7, extra));

describe("askButtons", () => {
  it("names a button for every answer the host lists but a reply, with Cline's labels", () => {
    const labels = Object.fromEntries(ASK_KINDS.map((kind) => [kind, askButtons(question(kind), ["A", "B"]).map((b) => b.label)]));
    expect(labels).toEqual({
      followup: ["A", "B"],
      tool: ["Approve", "Reject"],
      command: ["Run", "Reject"],
      command_output: ["Proceed While Running", "Kill Command"],
      completion_result: ["Start New Task"],
      api_req_failed: ["Retry", "Start New Task"],
      mistake_limit_reached: ["Proceed Anyway", "Start New Task"],
      spend_limit_reached: ["Continue Once", "Raise the Cap", "Stop"],
      new_task: ["Start New Task with this context", "Decline"],
      resume_task: ["Resume Task"],
      plan_mode_respond: ["A", "B", "Finish with this plan"],
    });
    const resultCommand = question("command", { tool: { tool: "attempt_completion", content: "npm start" } });
    expect(askButtons(resultCommand).map((b) => b.label)).toEqual(["Run", "Skip"]);
  });

  it("offers only the answers the host lists", () => {
    expect(askButtons({ id: 7, kind: "command_output", answers: ["kill"] }).map((b) => b.label)).toEqual(["Kill Command"]);
    expect(takesReply({ id: 7, kind: "api_req_failed", answers: ["retry", "stop"] })).toBe(false);
    expect(takesReply(question("tool"))).toBe(true);
  });

  it("sends the answer naming its question, clearTask after Start New Task, and followup options as replies", () => {
    const tool = question("tool");
    const [approve, reject] = askButtons(tool);
    expect(actionMessages(tool, approve!.action, EMPTY).messages).toEqual([{ type: "answer", answer: { questionId: 7, choice: "approve" } }]);
    expect(actionMessages(tool, reject!.action, EMPTY).messages).toEqual([{ type: "answer", answer: { questionId: 7, choice: "reject" } }]);
    const failed = question("api_req_failed");
    const [, startNew] = askButtons(failed);
    expect(actionMessages(failed, startNew!.action, EMPTY).messages).toEqual([
      { type: "answer", answer: { questionId: 7, choice: "stop" } },
      { type: "clearTask" },
    ]);
    const followup = question("followup");
    const [option] = askButtons(followup, ["Use tabs"]);
    expect(actionMessages(followup, option!.action, { text: "ignored", images: [] })).toEqual({
      messages: [{ type: "answer", answer: { questionId: 7, choice: "reply", text: "Use tabs" } }],
      consumedInput: false,
    });
  });

  it("lets Reject carry the input box as feedback, and only buttons that take input consume it", () => {
    const command = question("command");
    const [, reject] = askButtons(command);
    expect(actionMessages(command, reject!.action, { text: "  use pnpm  ", images: ["data:image/png;base64,AA"] })).toEqual({
      messages: [{ type: "answer", answer: { questionId: 7, choice: "reject", text: "use pnpm", images: ["data:image/png;base64,AA"] } }],
      consumedInput: true,
    });
    const failed = question("api_req_failed");
    const [retry] = askButtons(failed);
    expect(actionMessages(failed, retry!.action, { text: "hello", images: [] })).toEqual({
      messages: [{ type: "answer", answer: { questionId: 7, choice: "retry" } }],
      consumedInput: false,
    });
  });
});
