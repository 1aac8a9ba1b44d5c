import { describe, expect, it } from "vitest";
import type { AskMessage, ChatMessage, SayMessage } from "../../../shared/messages";
import { noticeText } from "../../../shared/notice";
import { TaskAttention } from "./attention";

let ts = 1000;
const say = (kind: SayMessage["say"], text: string, extra: Partial<SayMessage> = {}): SayMessage => ({ ts: ts++, type: "say", say: kind, text, ...extra });
const ask = (kind: AskMessage["ask"], text: string, extra: Partial<AskMessage> = {}): AskMessage => ({ ts: ts++, type: "ask", ask: kind, text, ...extra });

function working(): TaskAttention {
  const attention = new TaskAttention("task-1");
  attention.workBegan();
  return attention;
}

const TASK = say("task", "Fix the failing tests\nand keep the README true");

describe("what a question's notification says", () => {
  const cases: [string, AskMessage, string][] = [
    ["a command", ask("command", "npm test"), "Tandem wants to run `npm test`"],
    ["a command outside the sandbox", ask("command", "curl example.com", { tool: { tool: "execute_command", outsideSandbox: true } }), "Tandem wants to run `curl example.com` outside the sandbox"],
    ["an edit", ask("tool", "", { tool: { tool: "replace_in_file", path: "src/app.ts" } }), "Tandem wants to edit src/app.ts"],
    ["a new file", ask("tool", "", { tool: { tool: "write_to_file", path: "notes.md" } }), "Tandem wants to write notes.md"],
    ["a read outside the workspace", ask("tool", "", { tool: { tool: "read_file", path: "/etc/hosts" } }), "Tandem wants to read /etc/hosts"],
    ["an MCP call", ask("tool", "{}", { tool: { tool: "use_mcp_tool", mcp: { server: "memory", tool: "read_graph" } } }), "Tandem wants to use read_graph of the MCP server memory"],
    ["a fetch", ask("tool", "", { tool: { tool: "web_fetch", content: "https://example.com/a" } }), "Tandem wants to fetch https://example.com/a"],
    ["a follow-up question", ask("followup", "\nWhich database?\nPostgres or SQLite"), "Tandem asks: Which database?"],
    ["the mistake limit", ask("mistake_limit_reached", "The model failed 3 times. You can guide it, or stop."), "Tandem made too many mistakes in a row: guide it, or stop"],
    ["a spending cap", ask("spend_limit_reached", "The task has spent $0.5012 of its $0.5 cost cap. Continue with one more request, raise the cap (doubled, for this task), or stop."), "Tandem reached a spending cap: The task has spent $0.5012 of its $0.5 cost cap"],
    ["a failed request", ask("api_req_failed", "API request failed: 500 Internal Server Error"), "A request failed; retry or stop? 500 Internal Server Error"],
    ["a hand-over", ask("new_task", "Context: …"), "Tandem proposes to go on in a new task"],
  ];
  it.each(cases)("%s", (_name, row, message) => {
    const notice = working().question(row, [TASK, row]);
    expect(notice).toEqual({ event: "question", kind: row.ask, message, task: "Fix the failing tests", taskId: "task-1", questionId: row.ts });
  });

  it("names the task after the question, in one line without control characters", () => {
    const row = ask("command", "rm -rf build\u001b[2J && make\nsecond line");
    const notice = working().question(row, [TASK, row])!;
    expect(noticeText(notice)).toBe("Tandem wants to run `rm -rf build [2J && make` — task: Fix the failing tests");
  });

  it("cuts a long line", () => {
    const row = ask("followup", "x".repeat(300));
    expect(working().question(row, [TASK, row])!.message).toBe(`Tandem asks: ${"x".repeat(99)}…`);
  });
});

describe("which moments deserve one", () => {
  it("not a running command's question, nor a resumption's", () => {
    const attention = working();
    expect(attention.question(ask("command_output", "npm start is still running"), [TASK])).toBeUndefined();
    expect(attention.question(ask("resume_task", "Resume it?"), [TASK])).toBeUndefined();
  });

  it("nothing before the work begins: a reopened task's questions and its end are the person opening it", () => {
    const attention = new TaskAttention("task-1");
    const result = say("completion_result", "Done.");
    expect(attention.question(ask("completion_result", ""), [TASK, result])).toBeUndefined();
    expect(attention.ended("completed", [TASK, result], false)).toBeUndefined();
    attention.workBegan();
    expect(attention.question(ask("command", "ls"), [TASK])?.message).toBe("Tandem wants to run `ls`");
  });

  it("a result once, at its first question (the command it offers), as the task's end; its acceptance is no news", () => {
    const attention = working();
    const result = say("completion_result", "Added the --verbose flag.\nTests pass.");
    const offer = ask("command", "npm start", { tool: { tool: "attempt_completion" } });
    const chat: ChatMessage[] = [TASK, result, offer];
    expect(attention.question(offer, chat)).toEqual({
      event: "taskEnded",
      kind: "completed",
      message: "Tandem finished: Added the --verbose flag. (it offers to run `npm start`)",
      task: "Fix the failing tests",
      taskId: "task-1",
      questionId: offer.ts,
    });
    const accept = ask("completion_result", "");
    expect(attention.question(accept, [...chat, accept])).toBeUndefined();
    expect(attention.ended("completed", [...chat, accept], false)).toBeUndefined();
  });

  it("a new result after the person's reply is announced again", () => {
    const attention = working();
    const first = say("completion_result", "First try.");
    expect(attention.question(ask("completion_result", ""), [TASK, first])?.message).toBe("Tandem finished: First try.");
    const second = say("completion_result", "Second try.");
    const again = ask("completion_result", "");
    expect(attention.question(again, [TASK, first, second, again])).toMatchObject({ event: "taskEnded", kind: "completed", message: "Tandem finished: Second try.", questionId: again.ts });
  });

  it("a task that completes with no result announced (a plan taken as it is) is announced as it ends; a hand-over is not", () => {
    const plan = ask("plan_mode_respond", "1. Read the tests\n2. Fix them");
    expect(working().ended("completed", [TASK, plan], false)).toEqual({ event: "taskEnded", kind: "completed", message: "Tandem finished the plan: 1. Read the tests", task: "Fix the failing tests", taskId: "task-1" });
    expect(working().ended("completed", [TASK], false)?.message).toBe("Tandem finished the task");
    expect(working().ended("completed", [TASK], true)).toBeUndefined();
  });

  it("a stop as the task ends, saying why; a cancel never", () => {
    const failedRequest = say("api_req_started", "", { apiRequest: { tokensIn: 0, tokensOut: 0, cacheReads: 0, cacheWrites: 0, cost: 0, outcome: "failed", error: "401 invalid x-api-key" } });
    expect(working().ended("failed", [TASK, failedRequest], false)?.message).toBe("Tandem stopped: the request failed (401 invalid x-api-key)");
    expect(working().ended("failed", [TASK, say("error", "Tandem stopped unexpectedly: boom")], false)?.message).toBe("Tandem stopped: Tandem stopped unexpectedly: boom");
    expect(working().ended("mistake_limit", [TASK], false)).toMatchObject({ event: "taskEnded", kind: "mistake_limit", message: "Tandem stopped after too many mistakes in a row" });
    expect(working().ended("spend_limit", [TASK], false)).toMatchObject({ kind: "spend_limit", message: "Tandem stopped at the task's spending cap" });
    expect(working().ended("aborted", [TASK], false)).toBeUndefined();
  });
});
