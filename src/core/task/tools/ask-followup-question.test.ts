import { describe, expect, it } from "vitest";
import type { AskResponse } from "../../../shared/messages";
import { askFollowupQuestionTool } from "./ask-followup-question";
import { fakeToolContext, runTool } from "../../../../test/support/tool-context";

async function askWith(params: Record<string, string>, answer: AskResponse) {
  const { ctx, log } = fakeToolContext("/ws", { answers: [answer] });
  return { result: await runTool(askFollowupQuestionTool, params, ctx), log };
}

describe("ask_followup_question", () => {
  it("asks the question with its options and wraps the answer", async () => {
    const { result, log } = await askWith({ question: "JSON or YAML?", options: '["JSON", "YAML"]' }, { type: "message", text: "YAML" });
    expect(log.asks).toEqual([{ kind: "followup", text: "JSON or YAML?", options: ["JSON", "YAML"] }]);
    expect(result).toEqual({ kind: "ok", content: "<answer>\nYAML\n</answer>" });
  });

  it("asks without options when none are given", async () => {
    const { log } = await askWith({ question: "Which port?" }, { type: "message", text: "8080" });
    expect(log.asks).toEqual([{ kind: "followup", text: "Which port?" }]);
  });

  it("sends attached images along as image blocks", async () => {
    const { result } = await askWith({ question: "What does it look like?" }, { type: "message", text: "this", images: ["data:image/png;base64,iVBORw0K"] });
    expect(result).toEqual({
      kind: "ok",
      content: [
        { type: "text", text: "<answer>\nthis\n</answer>" },
        { type: "image", mediaType: "image/png", data: "iVBORw0K" },
      ],
    });
  });

  it("rejects options that are not a JSON array of strings", async () => {
    const { ctx, log } = fakeToolContext("/ws");
    await expect(runTool(askFollowupQuestionTool, { question: "q", options: "[Yes, No]" }, ctx)).rejects.toMatchObject({
      reason: "invalid_param",
      message: /not valid JSON/,
    });
    expect(log.asks).toHaveLength(0);
    await expect(runTool(askFollowupQuestionTool, { question: "q", options: '{"a":1}' }, ctx)).rejects.toThrow(/JSON array of strings/);
    await expect(runTool(askFollowupQuestionTool, { question: "q", options: "[1, 2]" }, ctx)).rejects.toThrow(/JSON array of strings/);
    expect((await askWith({ question: "q", options: " " }, { type: "message", text: "a" })).log.asks).toEqual([{ kind: "followup", text: "q" }]);
  });
});
