/**
 * Notifications through the real Controller and Task and the scripted model server: what the
 * Controller's onDidNeedAttention tells its hosts, once per question and per result, and the
 * Notification hook (a real executable) with what it reads, what it may print, and that it never
 * holds the task up.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Notice } from "../../src/shared/notice";
import { requestText } from "../cli/cli-harness";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const RESULT = "Ran the tests.\nAll 12 pass.";
const DONE = { text: `<attempt_completion>\n<result>${RESULT}</result>\n</attempt_completion>` };
const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });

async function open(options: Partial<HarnessOptions>): Promise<{ h: Harness; notices: Notice[] }> {
  const h = await startHarness({ provider: "anthropic", answer: approveAll, turns: [DONE], hooks: { globalFolder: true, trustWorkspace: () => true }, ...options });
  harness = h;
  const notices: Notice[] = [];
  h.controller.events.onDidNeedAttention((notice) => notices.push(notice));
  return { h, notices };
}

/** A global Notification hook that appends its stdin (one JSON line per run) to `log`, then runs `then`. */
async function notificationHook(h: Harness, log: string, then = ""): Promise<void> {
  const dir = join(h.storage, "hooks");
  await mkdir(dir, { recursive: true });
  const file = join(dir, "Notification");
  await writeFile(file, `#!/bin/sh\ncat >> ${JSON.stringify(log)}\necho >> ${JSON.stringify(log)}\n${then}\n`);
  await chmod(file, 0o755);
}

const runs = async (log: string) => (existsSync(log) ? (await readFile(log, "utf8")).split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []);

describe("what the Controller tells its hosts", () => {
  it("one notice per question and one for the result, each naming the task and its question; accepting the result is no news", async () => {
    const { h, notices } = await open({ turns: [command("echo hi"), DONE] });
    expect(await h.run("Run the tests\nthen report")).toBe("completed");
    const [commandAsk, resultAsk] = h.asks;
    expect(notices).toEqual([
      { event: "question", kind: "command", message: "Tandem wants to run `echo hi`", task: "Run the tests", taskId: h.controller.currentTask!.taskId, questionId: commandAsk!.ts },
      { event: "taskEnded", kind: "completed", message: "Tandem finished: Ran the tests.", task: "Run the tests", taskId: h.controller.currentTask!.taskId, questionId: resultAsk!.ts },
    ]);
    expect(resultAsk?.ask).toBe("completion_result");
  });

  it("a request that failed for good: its question, then the task's end, saying why", async () => {
    const { h, notices } = await open({
      turns: [{ kind: "fault", fault: "bad_request" }],
      answer: (ask) => (ask.ask === "api_req_failed" ? { type: "no" } : { type: "yes" }),
    });
    expect(await h.run("Do it")).toBe("failed");
    expect(notices.map((n) => `${n.event}:${n.kind}`)).toEqual(["question:api_req_failed", "taskEnded:failed"]);
    expect(notices[1]?.message).toMatch(/^Tandem stopped: the request failed \(Anthropic: the request was rejected \(HTTP 400\): messages: at least/);
  });
});

describe("the Notification hook", () => {
  it("reads each notification as the other hooks read their point, runs silently, and the task never waits for it", async () => {
    const { h, notices } = await open({ turns: [command("echo hi"), DONE] });
    const log = join(h.storage, "notifications.log");
    // Slow on purpose: the task goes on while its hooks run, and is let go only once they ended.
    const ended = join(h.storage, "ended.log");
    await notificationHook(h, log, `sleep 4; echo ended >> ${JSON.stringify(ended)}`);
    expect(await h.run("Run the tests")).toBe("completed");
    expect(existsSync(ended)).toBe(false);
    await h.controller.clearTask();
    expect(await readFile(ended, "utf8")).toBe("ended\nended\n");
    const seen = await runs(log);
    expect(seen.map((run) => run.notification)).toEqual(notices.map(({ event, kind, message, task }) => ({ event, kind, message, task })));
    expect(seen[0]).toMatchObject({ hookName: "Notification", taskId: notices[0]?.taskId, workspaceRoots: [h.workspace] });
    expect(h.messages.filter((m) => m.type === "say" && m.say === "hook")).toEqual([]);
  });

  it("its cancel and contextModification are ignored, and its row says so", async () => {
    const { h } = await open({ turns: [command("echo hi"), DONE] });
    const log = join(h.storage, "notifications.log");
    await notificationHook(h, log, `echo '{"cancel":true,"contextModification":"NOTIFICATION-CONTEXT","errorMessage":"stop everything"}'`);
    expect(await h.run("Run the tests")).toBe("completed");
    await h.controller.clearTask();
    expect(h.server.requests.map(requestText).join("\n")).not.toContain("NOTIFICATION-CONTEXT");
    const rows = h.messages.filter((m) => m.type === "say" && m.say === "hook").map((m) => m.hook!);
    expect(rows.length).toBe(2);
    expect(rows[0]).toMatchObject({ point: "Notification", outcome: "ok", message: "stop everything", problem: "its cancel and contextModification are ignored: Notification hooks only observe" });
    expect(rows[0]).not.toHaveProperty("addedContext");
  });

  it("the task's last notification is not cut off when the task is let go at once (as the CLI does)", async () => {
    const { h } = await open({ turns: [DONE] });
    const log = join(h.storage, "notifications.log");
    await notificationHook(h, log, "sleep 0.5; echo finished >> " + JSON.stringify(join(h.storage, "after.log")));
    expect(await h.run("Report")).toBe("completed");
    await h.controller.dispose();
    expect(await readFile(join(h.storage, "after.log"), "utf8")).toBe("finished\n");
  });
});
