/**
 * execute_command inside whole tasks: the real Controller and Task, the real provider SDKs and
 * the scripted model server, with commands run by the Node host in a temporary workspace.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createExecuteCommandTool } from "../../src/core/task/tools/execute-command";
import { TOOLS } from "../../src/core/task/tools/registry";
import type { ChatMessage } from "../../src/shared/messages";
import { historyProblems } from "../support/history-checks";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** No "still running" question unless a test wants one; quick chat updates. */
function tools(proceedPromptAfterMs = 60_000) {
  return { ...TOOLS, execute_command: createExecuteCommandTool({ proceedPromptAfterMs, chatUpdateMs: 20, backgroundUpdateMs: 20 }) };
}

async function open(options: Omit<HarnessOptions, "tools"> & { proceedPromptAfterMs?: number }): Promise<Harness> {
  harness = await startHarness({ ...options, tools: tools(options.proceedPromptAfterMs) });
  return harness;
}

const run = (command: string, extra = "") => ({ text: `Running it.\n<execute_command>\n<command>${command}</command>${extra}\n</execute_command>` });
const completion = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

/** The text the model received in request n, whichever the protocol. */
function requestText(h: Harness, n: number): string {
  const messages = h.server.requests[n]?.body.messages ?? [];
  return JSON.stringify(messages);
}

function outputs(h: Harness): ChatMessage[] {
  return h.messages.filter((m) => m.type === "say" && m.say === "command_output");
}

/** A zombie counts as dead: it no longer runs, it only waits to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** The pid a command printed first (`sleep 30 & echo $!`), once the chat shows it. */
async function printedPid(h: Harness): Promise<number> {
  let pid = Number.NaN;
  await vi.waitFor(() => {
    pid = Number(/^(\d+)/.exec(outputs(h)[0]?.text ?? "")?.[1]);
    expect(pid).toBeGreaterThan(0);
  });
  return pid;
}

describe.skipIf(process.platform === "win32")("execute_command in a task", () => {
  describe.each(["anthropic", "openai"] as const)("through %s", (provider) => {
    it("shows the output in the chat and gives it to the model in the next request", async () => {
      const h = await open({ provider, settings: { yolo: true }, answer: approveAll, turns: [run("printf 'alpha\\nbeta\\n'"), completion] });
      expect(await h.run("Print two words")).toBe("completed");
      expect(requestText(h, 1)).toContain("The command exited with code 0.\\nOutput:\\nalpha\\nbeta");
      expect(h.messages).toContainEqual(expect.objectContaining({ type: "say", say: "command", text: "printf 'alpha\\nbeta\\n'" }));
      expect(outputs(h)).toEqual([expect.objectContaining({ text: "alpha\nbeta", partial: false })]);
      const task = h.controller.currentTask;
      await task?.messages.flush();
      expect(historyProblems(task?.messages.apiHistory ?? [])).toEqual([]);
    });
  });

  it("runs as a native tool call too, answered by its tool_result", async () => {
    const h = await open({
      provider: "openai",
      settings: { yolo: true, toolCallMode: "native" },
      answer: approveAll,
      turns: [
        { toolCalls: [{ id: "call_cmd", name: "execute_command", input: { command: "echo native", requires_approval: "false" } }] },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Done." } }] },
      ],
    });
    expect(await h.run("Say native")).toBe("completed");
    const results = JSON.stringify(h.apiHistory()[2]?.content);
    expect(results).toContain('"toolUseId":"call_cmd"');
    expect(results).toContain("The command exited with code 0.\\nOutput:\\nnative");
  });

  it("reports a failing command to the model as a result, not as a mistake", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [run("echo broken >&2; exit 3"), completion] });
    expect(await h.run("Try it")).toBe("completed");
    expect(requestText(h, 1)).toContain("The command failed with exit code 3.\\nOutput:\\nbroken");
    expect(h.messages.filter((m) => m.type === "say" && m.say === "error")).toEqual([]);
  });

  it("asks before running when commands are not auto-approved, and a refusal runs nothing", async () => {
    const h = await open({
      provider: "anthropic",
      answer: (ask) => (ask.ask === "command" ? { type: "no", text: "not that one" } : { type: "yes" }),
      turns: [run("echo should-not-run"), completion],
    });
    expect(await h.run("Try it")).toBe("completed");
    expect(h.asks.map((a) => [a.ask, a.text])).toContainEqual(["command", "echo should-not-run"]);
    expect(requestText(h, 1)).toContain("not that one");
    expect(requestText(h, 1)).not.toContain("exited with code");
    expect(outputs(h)).toEqual([]);
  });

  it("kills the command and what it started at the timeout, and tells the model", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [run("sleep 30 & echo $!; wait", "\n<timeout>1</timeout>"), completion] });
    const outcome = h.run("Wait a bit");
    const grandchild = await printedPid(h);
    expect(await outcome).toBe("completed");
    expect(requestText(h, 1)).toContain("The command timed out after 1 s: it was stopped, together with every process it started.");
    await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), { timeout: 3_000 });
  });

  it("turns an invalid timeout into a tool error for the model", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [run("echo hi", "\n<timeout>soon</timeout>"), completion] });
    expect(await h.run("Try it")).toBe("completed");
    expect(requestText(h, 1)).toContain('timeout must be a number of seconds above 0');
    expect(outputs(h)).toEqual([]);
  });

  it("lets the person go on while a server runs; the task's end kills it", async () => {
    const h = await open({
      provider: "anthropic",
      answer: approveAll,
      proceedPromptAfterMs: 300,
      turns: [run("sleep 30 & echo $!; echo server-started; wait"), completion],
    });
    expect(await h.run("Start the server")).toBe("completed");
    expect(h.asks.map((a) => a.ask)).toEqual(["command", "command_output", "completion_result"]);
    const request = requestText(h, 1);
    expect(request).toContain("still running in the background");
    expect(request).toContain("server-started");
    const server = Number(/Output:\\n(\d+)\\n/.exec(request)?.[1]);
    expect(isAlive(server)).toBe(true);
    await h.controller.clearTask();
    await vi.waitFor(() => expect(isAlive(server)).toBe(false), { timeout: 3_000 });
  });

  it("stops a task at once when it is cancelled during a command, killing the command", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [run("sleep 30 & echo $!; wait"), completion] });
    await h.start("Wait for ever");
    const grandchild = await printedPid(h);
    const started = Date.now();
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(5_000); // the command sleeps 30 s
    expect(h.server.requests).toHaveLength(1);
    await vi.waitFor(() => expect(isAlive(grandchild)).toBe(false), { timeout: 3_000 });
  });
});
