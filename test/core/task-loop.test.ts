/**
 * The agent loop end to end: the real Controller and Task, the real provider SDKs, the scripted
 * model server. Each scenario runs for both providers and ends by checking that both histories
 * are well formed and that what is on disk matches what is in memory.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiMessage } from "../../src/api/types";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { createExecuteCommandTool } from "../../src/core/task/tools/execute-command";
import { TOOLS } from "../../src/core/task/tools/registry";
import type { ToolDefinition } from "../../src/core/task/tools/types";
import { historyProblems } from "../support/history-checks";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

const providers = ["anthropic", "openai"] as const;
let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function open(options: HarnessOptions): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

/** The text the model received in request n (all of it, flattened), whichever the protocol. */
function requestText(h: Harness, n: number): string {
  return JSON.stringify(h.server.requests[n]?.body.messages ?? []);
}

async function expectConsistent(h: Harness): Promise<void> {
  const task = h.controller.currentTask;
  if (!task) throw new Error("no task");
  await task.messages.flush();
  expect(historyProblems(task.messages.apiHistory)).toEqual([]);
  const stored = new TaskStorage(h.storage, task.taskId);
  expect(await stored.loadApiHistory()).toEqual(JSON.parse(JSON.stringify(task.messages.apiHistory)));
  expect(await stored.loadChatMessages()).toEqual(JSON.parse(JSON.stringify(task.messages.chatMessages)));
  expect(task.messages.chatMessages.filter((m) => m.partial)).toEqual([]);
}

const completion = (result = "All done.") => ({ text: `Finished.\n<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe.each(providers)("a task through %s", (provider) => {
  it("reads, writes and completes over several rounds (XML tools)", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      turns: [
        { text: "Let me look.\n<read_file>\n<path>notes.txt</path>\n</read_file>", chunkSize: 7 },
        { text: "<write_to_file>\n<path>out/summary.txt</path>\n<content>\nsummary: hello\n</content>\n</write_to_file>", chunkSize: 5 },
        completion("Wrote out/summary.txt."),
      ],
    });
    await writeFile(join(h.workspace, "notes.txt"), "hello\nworld\n");
    expect(await h.run("Summarise notes.txt")).toBe("completed");

    expect(await readFile(join(h.workspace, "out/summary.txt"), "utf8")).toBe("summary: hello\n");
    expect(h.server.requests).toHaveLength(3);
    expect(requestText(h, 1)).toContain("1|hello");
    expect(requestText(h, 2)).toContain("successfully saved");
    const texts = h.messages.filter((m) => m.type === "say" && m.say === "text").map((m) => m.text);
    expect(texts).toEqual(["Let me look.", "Finished."]);
    expect(h.messages.some((m) => m.type === "say" && m.say === "completion_result" && m.text === "Wrote out/summary.txt.")).toBe(true);
    const requests = h.messages.filter((m) => m.type === "say" && m.say === "api_req_started");
    expect(requests).toHaveLength(3);

    expect(requests.every((m) => m.apiRequest?.outcome === "completed" && m.apiRequest.tokensIn > 0 && m.apiRequest.tokensOut > 0)).toBe(true);
    await expectConsistent(h);
  });

  it("runs several native tool calls of one answer in order, each answered by its tool_result", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      settings: { toolCallMode: "native" },
      turns: [
        {
          text: "Reading both.",
          toolCalls: [
            { id: "call_a", name: "read_file", input: { path: "a.txt" } },
            { id: "call_b", name: "read_file", input: { path: "b.txt" } },
          ],
        },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Read both." } }] },
      ],
    });
    await writeFile(join(h.workspace, "a.txt"), "alpha\n");
    await writeFile(join(h.workspace, "b.txt"), "beta\n");
    expect(await h.run("Read a and b")).toBe("completed");

    const history = h.apiHistory();
    const results = (history[2]?.content as { type: string; toolUseId?: string; content?: unknown }[]).filter((b) => b.type === "tool_result");
    expect(results.map((r) => r.toolUseId)).toEqual(["call_a", "call_b"]);
    expect(JSON.stringify(results[0]?.content)).toContain("alpha");
    expect(JSON.stringify(results[1]?.content)).toContain("beta");
    expect(h.server.requests[0]?.body.tools).toBeDefined();
    await expectConsistent(h);
  });

  it("answers a round without tools with the noToolsUsed prompt and counts a mistake", async () => {
    const h = await open({ provider, answer: approveAll, turns: [{ text: "I think it is fine." }, completion()] });
    expect(await h.run("Check it")).toBe("completed");
    expect(requestText(h, 1)).toMatch(/did not use a tool|must use a tool|use a tool/i);
    await expectConsistent(h);
  });

  it("ends at the mistake limit in YOLO mode", async () => {
    const h = await open({
      provider,
      settings: { yolo: true, mistakeLimit: 3 },
      answer: approveAll,
      turns: [{ text: "one" }, { text: "two" }, { text: "three" }, completion()],
    });
    expect(await h.run("Do it")).toBe("mistake_limit");
    expect(h.server.requests).toHaveLength(3);
    expect(h.messages.at(-1)).toMatchObject({ type: "say", say: "error" });
    await expectConsistent(h);
  });

  it("asks at the mistake limit and goes on with the person's guidance", async () => {
    const h = await open({
      provider,
      settings: { mistakeLimit: 2 },
      answer: (ask) => (ask.ask === "mistake_limit_reached" ? { type: "message", text: "Use attempt_completion now." } : { type: "yes" }),
      turns: [{ text: "one" }, { text: "two" }, completion()],
    });
    expect(await h.run("Do it")).toBe("completed");
    expect(h.asks.map((a) => a.ask)).toContain("mistake_limit_reached");
    expect(requestText(h, 2)).toContain("Use attempt_completion now.");
    await expectConsistent(h);
  });

  it("shows an empty answer as an error, retries it, then asks", async () => {
    const h = await open({
      provider,
      settings: { requestRetries: 1 },
      answer: (ask) => (ask.ask === "api_req_failed" ? { type: "yes" } : { type: "yes" }),
      turns: [{ kind: "fault", fault: "empty" }, { kind: "fault", fault: "empty" }, completion()],
    });
    expect(await h.run("Do it")).toBe("completed");
    expect(h.messages.filter((m) => m.type === "say" && m.say === "error" && /empty answer/.test(m.text ?? ""))).toHaveLength(2);
    expect(h.asks.map((a) => a.ask)).toEqual(["api_req_failed", "completion_result"]);
    expect(h.server.requests).toHaveLength(3);
    await expectConsistent(h);
  });

  it.each(["rate_limit", "server_error", "overloaded"] as const)("retries %s before the first chunk with backoff, shown as error_retry", async (fault) => {
    const h = await open({ provider, answer: approveAll, turns: [{ kind: "fault", fault, retryAfter: 0 }, completion()] });
    expect(await h.run("Do it")).toBe("completed");
    const retries = h.messages.filter((m) => m.type === "say" && m.say === "error_retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.retry).toMatchObject({ attempt: 1, maxAttempts: 3 });
    expect(h.server.requests).toHaveLength(2);
    await expectConsistent(h);
  });

  it("never retries an auth error automatically: it asks at once", async () => {
    const h = await open({ provider, answer: (ask) => (ask.ask === "api_req_failed" ? { type: "no" } : { type: "yes" }), turns: [{ kind: "fault", fault: "auth" }] });
    expect(await h.run("Do it")).toBe("failed");
    expect(h.server.requests).toHaveLength(1);
    expect(h.messages.some((m) => m.type === "say" && m.say === "error_retry")).toBe(false);
    expect(h.asks.map((a) => a.ask)).toEqual(["api_req_failed"]);
    await expectConsistent(h);
  });

  it("asks instead of silently sleeping through a retry-after longer than a minute", async () => {
    const h = await open({ provider, answer: (ask) => (ask.ask === "api_req_failed" ? { type: "no" } : undefined), turns: [{ kind: "fault", fault: "rate_limit", retryAfter: 600 }] });
    const started = Date.now();
    expect(await h.run("Do it")).toBe("failed");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(h.asks[0]?.text).toMatch(/600 seconds/);
    await expectConsistent(h);
  });

  it.each(["drop_connection", "truncated", "error_mid_stream", "stall"] as const)(
    "retries the round after %s mid-stream without duplicating anything",
    async (fault) => {
      const h = await open({
        provider,
        answer: approveAll,
        // Long enough that a loaded machine's pause in the good answer is no stall (300 ms was not: beside the e2e suite it retried until the script ran out).
        api: { streamIdleTimeoutMs: 3_000 },
        turns: [{ kind: "fault", fault, text: "Partial words that will be lost" }, completion()],
      });
      expect(await h.run("Do it")).toBe("completed");
      expect(h.server.requests).toHaveLength(2);
      const texts = h.messages.filter((m) => m.type === "say" && m.say === "text").map((m) => m.text);
      expect(texts).toEqual(["Finished."]);
      expect(h.apiHistory().filter((m) => m.role === "assistant")).toHaveLength(1);
      expect(h.messages.filter((m) => m.type === "say" && m.say === "error_retry")).toHaveLength(1);
      await expectConsistent(h);
    },
  );

  it("truncates the conversation once on context overflow and retries", async () => {
    const read = { text: "<read_file>\n<path>notes.txt</path>\n</read_file>" };
    const h = await open({
      provider,
      answer: approveAll,
      turns: [read, read, read, { kind: "fault", fault: "context_window_exceeded" }, completion()],
    });
    await writeFile(join(h.workspace, "notes.txt"), "x\n");
    expect(await h.run("Read a lot")).toBe("completed");
    // OpenAI carries the system prompt as the first message; Anthropic apart from them.
    const conversation = (n: number) => (h.server.requests[n]?.body.messages as { role: string }[]).filter((m) => m.role !== "system");
    expect(conversation(4).length).toBeLessThan(conversation(3).length);
    expect(JSON.stringify(conversation(4)[0])).toContain("Read a lot");
    expect(h.messages.some((m) => m.type === "say" && m.say === "context_truncated")).toBe(true);
    await expectConsistent(h);
  });

  it("skips the rest of an answer after a rejected tool and sends the feedback", async () => {
    const h = await open({
      provider,
      answer: (ask) => (ask.ask === "tool" ? { type: "no", text: "Not that file." } : { type: "yes" }),
      turns: [
        { text: "<write_to_file>\n<path>keep.txt</path>\n<content>new</content>\n</write_to_file>\nMore text after." },
        completion(),
      ],
    });
    await writeFile(join(h.workspace, "keep.txt"), "old");
    expect(await h.run("Edit")).toBe("completed");
    expect(await readFile(join(h.workspace, "keep.txt"), "utf8")).toBe("old");
    expect(requestText(h, 1)).toContain("Not that file.");
    expect(h.messages.some((m) => m.type === "say" && m.say === "text" && m.text?.includes("More text after"))).toBe(false);
    expect(h.messages.find((m) => m.type === "ask" && m.ask === "tool")).toMatchObject({ outcome: "no" });
    await expectConsistent(h);
  });

  it("skips the remaining native calls after a rejection, each with a note", async () => {
    const h = await open({
      provider,
      settings: { toolCallMode: "native" },
      answer: (ask) => (ask.ask === "tool" ? { type: "no" } : { type: "yes" }),
      turns: [
        {
          toolCalls: [
            { id: "w1", name: "write_to_file", input: { path: "a.txt", content: "a" } },
            { id: "w2", name: "write_to_file", input: { path: "b.txt", content: "b" } },
          ],
        },
        { toolCalls: [{ id: "done", name: "attempt_completion", input: { result: "ok" } }] },
      ],
    });
    expect(await h.run("Write")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "tool")).toHaveLength(1);
    expect(requestText(h, 1)).toMatch(/skipped|not run|rejected/i);
    await expectConsistent(h);
  });

  it("runs only the first XML tool of an answer", async () => {
    const h = await open({
      provider,
      answer: approveAll,
      turns: [
        { text: "<read_file>\n<path>a.txt</path>\n</read_file>\n<read_file>\n<path>b.txt</path>\n</read_file>" },
        completion(),
      ],
    });
    await writeFile(join(h.workspace, "a.txt"), "alpha\n");
    await writeFile(join(h.workspace, "b.txt"), "beta\n");
    expect(await h.run("Read")).toBe("completed");
    expect(requestText(h, 1)).toContain("alpha");
    expect(requestText(h, 1)).not.toContain("beta");
    await expectConsistent(h);
  });

  it("closes a tool block left open at the end of the stream, so presentation finishes, but does not run it", async () => {
    const h = await open({ provider, answer: approveAll, turns: [{ text: "<attempt_completion>\n<result>Done without closing" }, completion("Done, closed.")] });
    expect(await h.run("Do it")).toBe("completed");
    expect(h.messages.filter((m) => m.type === "say" && m.say === "completion_result").map((m) => m.text)).toEqual(["Done, closed."]);
    expect(requestText(h, 1)).toContain("was NOT run");
    await expectConsistent(h);
  });
});

describe("a GPT-6 task over OpenAI's Responses API", () => {
  it("runs native tool calls with reasoning, and sends their results back as function call outputs", async () => {
    const h = await open({
      provider: "openai",
      api: { modelId: "gpt-6.2-sol", openAiApi: "responses" },
      answer: approveAll,
      settings: { toolCallMode: "native" },
      turns: [
        {
          thinking: { text: "The notes are in a.txt." },
          text: "Reading it.",
          toolCalls: [{ id: "call_read", name: "read_file", input: { path: "a.txt" } }],
          usage: { inputTokens: 3000, outputTokens: 40, cacheReadTokens: 1000 },
        },
        { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "Read it." } }] },
      ],
    });
    await writeFile(join(h.workspace, "a.txt"), "alpha from responses\n");
    expect(await h.run("Read a.txt")).toBe("completed");

    expect(h.server.requests.map((r) => r.protocol)).toEqual(["openai-responses", "openai-responses"]);
    const first = h.server.requests[0]?.body ?? {};
    expect(first).toMatchObject({ store: false, reasoning: { summary: "auto" } });
    expect(first.temperature).toBeUndefined();
    expect(JSON.stringify(first.tools)).toContain('"name":"read_file"');
    const input = JSON.stringify(h.server.requests[1]?.body.input);
    expect(input).toContain('"type":"function_call","call_id":"call_read"');
    expect(input).toMatch(/"type":"function_call_output","call_id":"call_read","output":"[^"]*alpha from responses/);
    expect(h.messages.some((m) => m.type === "say" && m.say === "reasoning" && m.text?.includes("The notes are in a.txt."))).toBe(true);
    await expectConsistent(h);
  });
});

describe("a command left running in the background", () => {
  it("sends its later output and how it ended with the next request", async () => {
    const h = await open({
      provider: "anthropic",
      answer: approveAll, // approves the command, then "proceed while running"
      tools: { ...TOOLS, execute_command: createExecuteCommandTool({ proceedPromptAfterMs: 100, backgroundUpdateMs: 20 }) },
      turns: [
        // The 2 s wait outlasts the next request's start even on a loaded machine (0.5 s once did not).
        { text: "<execute_command>\n<command>echo first-$((1)); sleep 2; echo later-$((2+3)); exit 3</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        // Streamed slowly (about 5 s), so the command prints and ends meanwhile.
        { text: "While it runs, a look around.\n<list_files>\n<path>.</path>\n</list_files>", chunkSize: 2, delayMs: 120 },
        completion(),
      ],
    });
    expect(await h.run("Start it and carry on")).toBe("completed");
    expect(requestText(h, 1)).toContain("still running in the background");
    expect(requestText(h, 1)).toContain("first-1");
    expect(requestText(h, 1)).not.toContain("later-5");
    const third = requestText(h, 2);
    expect(third).toContain("<background_commands>");
    expect(third).toContain("later-5");
    expect(third).toContain("has ended. The command failed with exit code 3.");
    await expectConsistent(h);
  });
});

describe("handing over to a new task", () => {
  it("ends the task on new_task and starts the next one with the context as its prompt", async () => {
    const h = await open({
      provider: "anthropic",
      answer: approveAll,
      turns: [
        { text: "<new_task>\n<context>Goal: finish the migration. Left: users.ts</context>\n</new_task>" },
        completion("Migrated users.ts."),
      ],
    });
    const first = await h.controller.newTask("Migrate everything");
    expect(await h.controller.waitForTask()).toBe("completed");
    expect(h.controller.currentTask).not.toBe(first);
    expect(h.asks.map((a) => a.ask)).toEqual(["new_task", "completion_result"]);
    expect(requestText(h, 1)).toContain("Goal: finish the migration. Left: users.ts");
    expect(requestText(h, 1)).not.toContain("Migrate everything");
    await expectConsistent(h);
  });
});

describe("streaming to the UI", () => {
  it("throttles partial text updates instead of sending one per chunk", async () => {
    const chunks = 1_000;
    // An interval longer than the whole stream: the first chunk shows at once, the rest wait for
    // the interval, and the end of the stream flushes the last partial state. That is a count,
    // whatever the machine's speed (timer-precision bounds made this flaky).
    const h = await open({
      provider: "openai",
      answer: approveAll,
      partialUpdateIntervalMs: 60_000,
      turns: [{ text: "abc".repeat(chunks) + completion().text, chunkSize: 3 }],
    });
    expect(await h.run("Write")).toBe("completed");
    expect(h.partialTextUpdates).toBeGreaterThanOrEqual(1);
    expect(h.partialTextUpdates).toBeLessThanOrEqual(2);
    expect(h.messages.find((m) => m.type === "say" && m.say === "text")?.text).toBe("abc".repeat(chunks) + "Finished.");
  });
});

describe.each(providers)("cancelling a task through %s", (provider) => {
  it("during the stream: stops at once, keeps the partial answer, sends nothing more", async () => {
    // The whole answer takes 20 s; the bounds below say "at once" loosely enough for a busy machine.
    const h = await open({ provider, turns: [{ text: "word ".repeat(400), chunkSize: 5, delayMs: 50 }, completion()] });
    await h.start("Write a lot");
    await waitFor(() => h.messages.some((m) => m.type === "say" && m.say === "text" && (m.text ?? "").includes("word word word")));
    const started = Date.now();
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(5_000);
    const last = h.apiHistory().at(-1) as ApiMessage;
    expect(last.role).toBe("assistant");
    expect(JSON.stringify(last.content)).toContain("word word");
    expect(JSON.stringify(last.content)).toContain("interrupted");
    // The request row must stop looking busy.
    expect(h.messages.find((m) => m.type === "say" && m.say === "api_req_started")?.apiRequest?.outcome).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 200));
    expect(h.server.requests).toHaveLength(1);
    await expectConsistent(h);
  });

  it("when the host shuts down during an approval: the chat and the model are told so, not that the person cancelled", async () => {
    const h = await open({ provider, turns: [{ text: "<write_to_file>\n<path>x.txt</path>\n<content>x</content>\n</write_to_file>" }, completion()] });
    await h.start("Write");
    await h.waitForAsk("tool");
    const task = h.controller.currentTask;
    if (!task) throw new Error("no task");
    const outcome = h.finished();
    await h.controller.dispose();
    expect(await outcome).toBe("aborted");
    // What the next window reads from disk when it reopens the task.
    const stored = new TaskStorage(h.storage, task.taskId);
    const infos = (await stored.loadChatMessages()).filter((m) => m.type === "say" && m.say === "info").map((m) => m.text);
    expect(infos).toContain("Interrupted: the window closed or reloaded.");
    expect(infos).not.toContain("Task cancelled.");
    const history = await stored.loadApiHistory();
    expect(historyProblems(history)).toEqual([]);
    const last = JSON.stringify(history.at(-1));
    expect(last).toContain("the person did not cancel the task");
    expect(last).not.toContain("interrupted by user");
    // Nobody answered the question: its row stays as it was shown before the window went away.
    const question = (await stored.loadChatMessages()).find((m) => m.type === "ask" && m.ask === "tool");
    expect(question && "outcome" in question).toBe(false);
  });

  it("while waiting for an approval", async () => {
    const h = await open({ provider, turns: [{ text: "<write_to_file>\n<path>x.txt</path>\n<content>x</content>\n</write_to_file>" }, completion()] });
    await h.start("Write");
    await h.waitForAsk("tool");
    // The stream is over: its request row must not look busy while the person decides.
    expect(h.messages.find((m) => m.type === "say" && m.say === "api_req_started")?.apiRequest?.outcome).toBe("completed");
    const started = Date.now();
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.server.requests).toHaveLength(1);
    // The question's row says it was cancelled, not that the person rejected it.
    expect(h.messages.find((m) => m.type === "ask" && m.ask === "tool")).toMatchObject({ outcome: "cancelled" });
    await expectConsistent(h);
  });

  it("while a tool runs", async () => {
    let toolStarted = false;
    const waitUntilCancelled: ToolDefinition = {
      name: "wait_forever",
      description: "Waits until cancelled.",
      params: [],
      readOnly: true,
      approval: "none",
      prepare: (_params, ctx) =>
        Promise.resolve({
          run: () =>
            new Promise((resolve) => {
              toolStarted = true;
              ctx.signal.addEventListener("abort", () => resolve({ kind: "ok", content: "stopped" }));
            }),
        }),
    };
    const h = await open({ provider, tools: { ...TOOLS, wait_forever: waitUntilCancelled }, turns: [{ text: "<wait_forever>\n</wait_forever>" }, completion()] });
    await h.start("Wait");
    await waitFor(() => toolStarted);
    const started = Date.now();
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.server.requests).toHaveLength(1);
    await expectConsistent(h);
  });

  it("while a retry is waiting", async () => {
    const h = await open({ provider, retry: { baseDelayMs: 30_000, maxDelayMs: 30_000 }, turns: [{ kind: "fault", fault: "server_error" }, completion()] });
    await h.start("Do it");
    await waitFor(() => h.messages.some((m) => m.type === "say" && m.say === "error_retry"));
    const started = Date.now();
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(h.server.requests).toHaveLength(1);
    await expectConsistent(h);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
