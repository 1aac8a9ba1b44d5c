import { describe, expect, it } from "vitest";
import type { AskResponse } from "../../../shared/messages";
import { attemptCompletionTool } from "./attempt-completion";
import { fakeToolContext, runTool, type FakeContextScript } from "../../../../test/support/tool-context";

async function complete(params: Record<string, string>, answers: AskResponse[], script: Omit<FakeContextScript, "answers"> = {}) {
  const { ctx, log } = fakeToolContext(process.cwd(), { answers, ...script });
  return { result: await runTool(attemptCompletionTool, params, ctx), log };
}

describe("attempt_completion", () => {
  it("shows the result, asks, and ends the task on yes", async () => {
    const { result, log } = await complete({ result: "Done: added greet()." }, [{ type: "yes" }]);
    expect(result).toEqual({ kind: "task_completed" });
    expect(log.says).toEqual([{ kind: "completion_result", text: "Done: added greet().", tool: undefined, partial: undefined }]);
    expect(log.asks).toEqual([{ kind: "completion_result", text: "" }]);
    expect(log.approvals).toHaveLength(0);
  });

  it("turns a reply into feedback for the model", async () => {
    const { result } = await complete({ result: "r" }, [{ type: "message", text: "also add tests", images: ["data:image/png;base64,AA=="] }]);
    expect(result).toEqual({ kind: "completion_feedback", feedback: { text: "also add tests", images: ["data:image/png;base64,AA=="] } });
    expect((await complete({ result: "r" }, [{ type: "no", text: "wrong file" }])).result).toEqual({
      kind: "completion_feedback",
      feedback: { text: "wrong file", images: undefined },
    });
  });
});

describe("attempt_completion's suggested command", () => {
  it("asks through the command approval, marked as the result's, and runs it once approved, its output shown", async () => {
    const { result, log } = await complete({ result: "r", command: "echo shown-result" }, [{ type: "yes" }], { approvals: [{ approved: true }] });
    expect(result).toEqual({ kind: "task_completed" });
    expect(log.approvals).toEqual([expect.objectContaining({ category: "command", command: "echo shown-result", message: expect.objectContaining({ tool: "attempt_completion", content: "echo shown-result", confinement: expect.objectContaining({ kind: expect.any(String) }) }) })]);
    const output = log.says.filter((s) => s.kind === "command_output").map((s) => s.text).join("");
    expect(output).toContain("shown-result");
    // The result comes first, then the command, then the question that ends the task.
    expect(log.says[0]?.kind).toBe("completion_result");
    expect(log.asks.map((a) => a.kind)).toEqual(["completion_result"]);
  });

  it("is skipped when not approved: nothing runs and the result still waits for the person", async () => {
    const { result, log } = await complete({ result: "r", command: "echo never-ran" }, [{ type: "yes" }], { approvals: [{ approved: false }] });
    expect(result).toEqual({ kind: "task_completed" });
    expect(log.says.some((s) => s.kind === "command_output")).toBe(false);
    expect(log.asks.map((a) => a.kind)).toEqual(["completion_result"]);
  });

  it("a reply instead of running it is feedback on the result", async () => {
    const { result, log } = await complete({ result: "r", command: "echo never-ran" }, [], { approvals: [{ approved: false, feedback: { text: "the port is wrong" } }] });
    expect(result).toEqual({ kind: "completion_feedback", feedback: { text: "the port is wrong" } });
    expect(log.asks).toHaveLength(0);
  });

  it("a reply after running it gives the model the command's output too", async () => {
    const { result } = await complete({ result: "r", command: "echo it-crashed" }, [{ type: "message", text: "see the output" }], { approvals: [{ approved: true }] });
    expect(result.kind).toBe("completion_feedback");
    const text = result.kind === "completion_feedback" ? (result.feedback.text ?? "") : "";
    expect(text).toContain("see the output");
    expect(text).toContain("it-crashed");
  });
});
