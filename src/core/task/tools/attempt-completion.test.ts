import { describe, expect, it } from "vitest";
import type { AskResponse } from "../../../shared/messages";
import { attemptCompletionTool } from "./attempt-completion";
import { fakeToolContext } from "./fake-tool-context";

async function complete(params: Record<string, string>, answer: AskResponse) {
  const { ctx, log } = fakeToolContext("/ws", { answers: [answer] });
  return { result: await attemptCompletionTool.execute(params, ctx), log };
}

describe("attempt_completion", () => {
  it("shows the result, asks, and ends the task on yes", async () => {
    const { result, log } = await complete({ result: "Done: added greet()." }, { type: "yes" });
    expect(result).toEqual({ kind: "task_completed" });
    expect(log.says).toEqual([{ kind: "completion_result", text: "Done: added greet().", tool: undefined, partial: undefined }]);
    expect(log.asks).toEqual([{ kind: "completion_result", text: "" }]);
    expect(log.approvals).toHaveLength(0);
  });

  it("turns a reply into feedback for the model", async () => {
    const { result } = await complete({ result: "r" }, { type: "message", text: "also add tests", images: ["data:image/png;base64,AA=="] });
    expect(result).toEqual({ kind: "completion_feedback", feedback: { text: "also add tests", images: ["data:image/png;base64,AA=="] } });
    expect((await complete({ result: "r" }, { type: "no", text: "wrong file" })).result).toEqual({
      kind: "completion_feedback",
      feedback: { text: "wrong file", images: undefined },
    });
  });

  it("shows a suggested command without running it", async () => {
    const { log } = await complete({ result: "r", command: "npm start" }, { type: "yes" });
    expect(log.says.map((s) => s.kind)).toEqual(["completion_result", "info"]);
    expect(log.says[1]?.text).toContain("npm start");
    expect(log.says[1]?.text).toContain("not run");
  });
});
