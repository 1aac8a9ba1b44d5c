import { describe, expect, it } from "vitest";
import { InterruptedTaskMemory, type TaskMemento } from "../../src/host/vscode/interrupted-task-memory";

/** A workspace memento kept in a Map, as VS Code's is per workspace. */
function memento(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  const writes: unknown[] = [];
  const state: TaskMemento = {
    get: (<T>(key: string, fallback?: T) => (values.has(key) ? values.get(key) : fallback)) as TaskMemento["get"],
    update: async (key, value) => {
      writes.push(value);
      if (value === undefined) values.delete(key);
      else values.set(key, value);
    },
  };
  return { state, writes };
}


describe("InterruptedTaskMemory", () => {
  it("remembers the running task until it finishes", () => {
    const { state } = memento();
    const memory = new InterruptedTaskMemory(state, () => {});
    expect(memory.remembered()).toBeUndefined();
    memory.runningTaskChanged("task-1");
    expect(memory.remembered()).toBe("task-1");
    memory.runningTaskChanged(undefined);
    expect(memory.remembered()).toBeUndefined();
  });

  it("forgets a task the person cleared, and follows a new one", () => {
    const memory = new InterruptedTaskMemory(memento().state, () => {});
    memory.runningTaskChanged("task-1");
    memory.runningTaskChanged(undefined);
    expect(memory.remembered()).toBeUndefined();
    memory.runningTaskChanged("task-2");
    expect(memory.remembered()).toBe("task-2");
  });

  it("keeps the task when the host ends it on the way out (a reload)", () => {
    const { state } = memento();
    const memory = new InterruptedTaskMemory(state, () => {});
    memory.runningTaskChanged("task-1");
    memory.hostEnding();
    memory.runningTaskChanged(undefined);
    expect(memory.remembered()).toBe("task-1");
    // The next host reads the same workspace state.
    expect(new InterruptedTaskMemory(state, () => {}).remembered()).toBe("task-1");
  });

  it("writes only when the remembered task changes", () => {
    const { state, writes } = memento();
    const memory = new InterruptedTaskMemory(state, () => {});
    for (const id of ["task-1", "task-1", undefined, undefined]) memory.runningTaskChanged(id);
    expect(writes).toEqual(["task-1", undefined]);
  });

  it("ignores a stored value that is not a task id", () => {
    expect(new InterruptedTaskMemory(memento({ "tandem.interruptedTaskId": 42 }).state, () => {}).remembered()).toBeUndefined();
    expect(new InterruptedTaskMemory(memento({ "tandem.interruptedTaskId": "" }).state, () => {}).remembered()).toBeUndefined();
  });

  it("reports a failed write instead of dropping it", async () => {
    const warnings: string[] = [];
    const state: TaskMemento = { get: (() => undefined) as TaskMemento["get"], update: () => Promise.reject(new Error("disk full")) };
    const memory = new InterruptedTaskMemory(state, (text) => warnings.push(text));
    memory.runningTaskChanged("task-1");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warnings).toEqual(["Could not remember the running task for a window reload: disk full"]);
  });
});
