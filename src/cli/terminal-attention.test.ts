import { describe, expect, it } from "vitest";
import type { Notice } from "../shared/notice";
import { TerminalAttention } from "./terminal-attention";

const question = (id: number): Notice => ({ event: "question", kind: "command", message: `q${id}`, task: "t", taskId: "task", questionId: id });
const result: Notice = { event: "taskEnded", kind: "completed", message: "Tandem finished: done", task: "t", taskId: "task", questionId: 9 };
const failed: Notice = { event: "taskEnded", kind: "failed", message: "Tandem stopped", task: "t", taskId: "task" };

function terminal() {
  const bells: string[] = [];
  const commands: string[] = [];
  let last = "";
  const attention = new TerminalAttention({ bell: () => bells.push(last), command: (n) => ((last = n.message), commands.push(n.message)) });
  return { attention, bells, commands };
}

describe("the CLI's bell and --notify", () => {
  it("a question once it is put to the person at the terminal, whichever comes first", () => {
    const t = terminal();
    t.attention.notice(question(1));
    expect(t.commands).toEqual([]);
    t.attention.asking(1);
    t.attention.asking(2);
    t.attention.notice(question(2));
    expect(t.commands).toEqual(["q1", "q2"]);
    expect(t.bells).toHaveLength(2);
  });

  it("a question nobody is asked (unattended, or answered by the run) is not rung for; a task's end is, always", () => {
    const t = terminal();
    t.attention.notice(question(3));
    t.attention.notice(result);
    t.attention.notice(failed);
    expect(t.commands).toEqual(["Tandem finished: done", "Tandem stopped"]);
  });

  it("one alert per question, though the prompt is put again (a withheld reply)", () => {
    const t = terminal();
    t.attention.notice(question(4));
    t.attention.asking(4);
    t.attention.asking(4);
    expect(t.commands).toEqual(["q4"]);
  });
});
