/**
 * One ownership tree: the Controller creates each Task and disposes it, and a disposed task
 * releases what it held. Seen from outside (the real Controller, Task, SDK, scripted model
 * server and a real shell): clearing a task that left a server running in the background ends
 * that server, saves the task's messages, and nothing of the task is heard from afterwards.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { Task } from "../../src/core/task";
import { createExecuteCommandTool } from "../../src/core/task/tools/execute-command";
import { TOOLS } from "../../src/core/task/tools/registry";
import { approveAll, startHarness, type Harness } from "../support/task-harness";

let harness: Harness | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.dispose();
  harness = undefined;
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const run = (command: string) => ({ text: `<execute_command>\n<command>${command}</command>\n</execute_command>` });
const completion = { text: "<attempt_completion>\n<result>Started.</result>\n</attempt_completion>" };

describe("disposing a task", () => {
  it("is the Controller's: clearing ends the task's background server, saves its messages, and it falls silent", async () => {
    const disposed: Task[] = [];
    const dispose = Task.prototype.dispose;
    vi.spyOn(Task.prototype, "dispose").mockImplementation(async function (this: Task, reason) {
      disposed.push(this);
      return dispose.call(this, reason);
    });
    const tools = { ...TOOLS, execute_command: createExecuteCommandTool({ proceedPromptAfterMs: 300, chatUpdateMs: 20, backgroundUpdateMs: 20 }) };
    const h = (harness = await startHarness({ provider: "anthropic", answer: approveAll, tools, turns: [run("sleep 30 & echo $!; echo up; wait"), completion] }));
    expect(await h.run("Start the server")).toBe("completed");
    const task = h.controller.currentTask;
    const output = JSON.stringify(h.server.requests[1]?.body.messages ?? []);
    const server = Number(/Output:\\n(\d+)\\n/.exec(output)?.[1]);
    expect(isAlive(server)).toBe(true);

    await h.controller.clearTask();
    expect(disposed).toEqual([task]);
    await vi.waitFor(() => expect(isAlive(server)).toBe(false), { timeout: 3_000 });
    const stored = new TaskStorage(h.storage, task!.taskId);
    expect(await stored.loadChatMessages()).toEqual(JSON.parse(JSON.stringify(task!.messages.chatMessages)));
    // Nothing of the disposed task reaches the panel any more (its background feed, its throttles).
    const seen = h.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.messages.length).toBe(seen);
    // Disposing again is harmless.
    await task!.dispose();
    expect(disposed).toHaveLength(2);
  });
});
