/**
 * The context window in the loop: condensing before the window fills, truncation when condensing
 * is off or fails, the provider's refusal as the last resort, /compact, and duplicate reads. The
 * real Controller and Task, the real SDKs and the scripted model server; what the model was sent
 * is read from the requests the server recorded.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/api/model-info";
import { SUMMARY_MARK } from "../../src/core/context/condense";
import { contextLimit } from "../../src/core/context/context-window";
import { replacedReadNote } from "../../src/core/context/read-ledger";
import { TaskStorage } from "../../src/core/storage/task-storage";
import type { AskMessage, ChatMessage } from "../../src/shared/messages";
import { DEFAULT_AUTO_APPROVAL } from "../../src/shared/settings";
import { historyProblems } from "../support/history-checks";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const WINDOW = 20_000;
const LIMIT = contextLimit(resolveModel("anthropic", "claude-sonnet-5-5", WINDOW).info);

async function open(options: Partial<HarnessOptions> & { files?: Record<string, string> }): Promise<Harness> {
  const { files, ...rest } = options;
  harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [], api: { contextWindowOverride: WINDOW }, ...rest });
  for (const [name, text] of Object.entries(files ?? {})) await writeFile(join(harness.workspace, name), text);
  return harness;
}

const read = (path: string, usage?: { inputTokens: number }): ScriptTurn => ({
  text: `<read_file>\n<path>${path}</path>\n</read_file>`,
  usage: { inputTokens: 100, outputTokens: 20, ...usage },
});
const nativeRead = (path: string, id: string, usage?: { inputTokens: number }): ScriptTurn => ({
  toolCalls: [{ id, name: "read_file", input: { path } }],
  usage: { inputTokens: 100, outputTokens: 20, ...usage },
});
const DONE: ScriptTurn = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const SUMMARY: ScriptTurn = { text: "SUMMARY-TEXT: read a.txt (alpha) and b.txt; next: finish.", usage: { inputTokens: 900, outputTokens: 40 } };

const EDITS_ALLOWED = { ...DEFAULT_AUTO_APPROVAL, editFiles: true };
const sent = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.messages ?? []);
const messagesOf = (request: RecordedRequest | undefined) => (request?.body.messages ?? []) as { role: string; content: unknown }[];
const isSummaryRequest = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes("You condense the conversation");
const said = (h: Harness, kind: string) => h.messages.filter((m) => m.type === "say" && m.say === kind);
const FILE_A = `${"alpha line\n".repeat(40)}ALPHA-END\n`;
const FILE_B = `${"beta line\n".repeat(40)}BETA-END\n`;

/** Roles alternate from the person's and each tool_use is answered in the very next message, as Anthropic's API insists. */
function wireProblems(request: RecordedRequest): string[] {
  const messages = messagesOf(request) as { role: string; content: string | { type: string; id?: string; tool_use_id?: string }[] }[];
  const problems: string[] = [];
  messages.forEach((message, i) => {
    if (message.role !== (i % 2 === 0 ? "user" : "assistant")) problems.push(`message ${i} is ${message.role}`);
    const blocks = typeof message.content === "string" ? [] : message.content;
    const next = messages[i + 1];
    const answered = new Set((typeof next?.content === "string" ? [] : (next?.content ?? [])).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
    for (const use of blocks.filter((b) => b.type === "tool_use")) if (!answered.has(use.id)) problems.push(`tool_use ${use.id} in message ${i} unanswered`);
    const previous = messages[i - 1];
    const asked = new Set((typeof previous?.content === "string" ? [] : (previous?.content ?? [])).filter((b) => b.type === "tool_use").map((b) => b.id));
    for (const result of blocks.filter((b) => b.type === "tool_result")) if (!asked.has(result.tool_use_id)) problems.push(`tool_result ${result.tool_use_id} in message ${i} answers nothing`);
  });
  return problems;
}

describe("condensing before the window fills", () => {
  it.each(["xml", "native"] as const)("summarises the earlier rounds into the first message once usage passes the limit (%s)", async (mode) => {
    const turns =
      mode === "xml"
        ? [read("a.txt"), read("b.txt", { inputTokens: LIMIT + 100 }), SUMMARY, DONE]
        : [nativeRead("a.txt", "r1"), nativeRead("b.txt", "r2", { inputTokens: LIMIT + 100 }), SUMMARY, { toolCalls: [{ id: "done", name: "attempt_completion", input: { result: "Done." } }] }];
    const h = await open({ turns, settings: { toolCallMode: mode }, files: { "a.txt": FILE_A, "b.txt": FILE_B } });
    expect(await h.run("Read the two files")).toBe("completed");
    const [, second, summary, after] = h.server.requests;
    expect(h.server.requests).toHaveLength(4);

    // The summary request: the same model, no tools, the whole conversation as text.
    expect(summary && isSummaryRequest(summary)).toBe(true);
    expect(summary?.body.tools).toBeUndefined();
    expect(sent(summary)).toContain("ALPHA-END");
    expect(sent(summary)).not.toContain('"type":"tool_use"');

    // The next request: the task with the summary, then the latest round only.
    expect(sent(second)).toContain("ALPHA-END");
    const messages = messagesOf(after);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(messages[0])).toContain("Read the two files");
    expect(JSON.stringify(messages[0])).toContain(SUMMARY_MARK);
    expect(JSON.stringify(messages[0])).toContain("SUMMARY-TEXT");
    expect(sent(after)).not.toContain("ALPHA-END");
    expect(sent(after)).toContain("BETA-END");
    expect(after && wireProblems(after)).toEqual([]);
    expect(historyProblems(h.apiHistory())).toEqual([]);

    const [row] = said(h, "context_condensed");
    expect(row?.text).toContain("SUMMARY-TEXT");
    expect(row?.condense?.trigger).toBe("auto");
    expect(row?.condense?.tokensBefore).toBeGreaterThan(LIMIT);
    expect(row?.condense?.tokensAfter).toBeLessThan(row?.condense?.tokensBefore ?? 0);
    expect(said(h, "context_truncated")).toEqual([]);
    // The summary's own request is counted in the chat like any other.
    expect(said(h, "api_req_started")).toHaveLength(4);
  });

  it("falls back to truncation, and says so, when the summary request fails", async () => {
    const turns: ScriptTurn[] = [read("a.txt"), read("b.txt", { inputTokens: LIMIT + 100 }), { kind: "fault", fault: "bad_request" }, DONE];
    const h = await open({ turns, files: { "a.txt": FILE_A, "b.txt": FILE_B } });
    expect(await h.run("Read the two files")).toBe("completed");
    expect(h.server.requests).toHaveLength(4);
    expect(isSummaryRequest(h.server.requests[2] as RecordedRequest)).toBe(true);
    const after = h.server.requests[3];
    expect(messagesOf(after)).toHaveLength(3);
    expect(sent(after)).not.toContain("ALPHA-END");
    expect(said(h, "context_truncated")[0]?.text).toMatch(/could not be condensed .*: the 2 oldest messages after the task were removed/);
    expect(said(h, "context_condensed")).toEqual([]);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });
});

describe("with auto-condense off", () => {
  it("drops the oldest rounds before the request, before the provider can refuse it", async () => {
    const turns = [read("a.txt"), read("b.txt", { inputTokens: LIMIT + 100 }), DONE];
    const h = await open({ turns, settings: { autoCondense: false }, files: { "a.txt": FILE_A, "b.txt": FILE_B } });
    expect(await h.run("Read the two files")).toBe("completed");
    expect(h.server.requests).toHaveLength(3);
    expect(h.server.requests.some(isSummaryRequest)).toBe(false);
    const after = h.server.requests[2];
    expect(messagesOf(after).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent(after)).not.toContain("ALPHA-END");
    expect(sent(after)).toContain("BETA-END");
    expect(said(h, "context_truncated")[0]?.text).toMatch(/neared the model's context window: the 2 oldest messages/);
    // The note comes before the request it made room for.
    const order = h.messages.map((m) => (m.type === "say" ? m.say : m.ask));
    expect(order.lastIndexOf("context_truncated")).toBeLessThan(order.lastIndexOf("api_req_started"));
  });

  it("still truncates and retries when the provider refuses a request as too long anyway", async () => {
    const turns: ScriptTurn[] = [read("a.txt"), read("b.txt"), { kind: "fault", fault: "context_window_exceeded" }, DONE];
    const h = await open({ turns, settings: { autoCondense: false }, files: { "a.txt": FILE_A, "b.txt": FILE_B } });
    expect(await h.run("Read the two files")).toBe("completed");
    expect(h.server.requests).toHaveLength(4);
    expect(messagesOf(h.server.requests[2])).toHaveLength(5);
    expect(messagesOf(h.server.requests[3])).toHaveLength(3);
    expect(said(h, "context_truncated")[0]?.text).toMatch(/no longer fit the model's context window/);
  });
});

describe("/compact", () => {
  it("condenses at once when typed as a reply, then asks the same question again", async () => {
    const turns = [read("a.txt"), read("b.txt"), DONE, SUMMARY, DONE];
    let replies = 0;
    const h = await open({
      turns,
      files: { "a.txt": FILE_A, "b.txt": FILE_B },
      answer: (ask: AskMessage) => {
        if (ask.ask !== "completion_result") return { type: "yes" };
        replies++;
        return replies === 1 ? { type: "message", text: " /compact " } : replies === 2 ? { type: "message", text: "Now check b.txt again." } : { type: "yes" };
      },
    });
    expect(await h.run("Read the two files")).toBe("completed");
    const requests = h.server.requests;
    expect(requests).toHaveLength(5);
    expect(isSummaryRequest(requests[3] as RecordedRequest)).toBe(true);
    // "/compact" never reached the model as text; the reply after it did, with the condensed history.
    expect(requests.some((r) => sent(r).includes("/compact"))).toBe(false);
    const after = requests[4];
    expect(sent(after)).toContain("Now check b.txt again.");
    expect(sent(after)).toContain("SUMMARY-TEXT");
    expect(sent(after)).not.toContain("ALPHA-END");
    expect(after && wireProblems(after)).toEqual([]);
    const [row] = said(h, "context_condensed");
    expect(row?.condense?.trigger).toBe("compact");
    expect(h.asks.filter((a) => a.ask === "completion_result")).toHaveLength(3);
    expect(said(h, "user_feedback").map((m) => m.text)).toContain("/compact");
  });

  it("says there is nothing to condense in the first round", async () => {
    let replies = 0;
    const h = await open({
      turns: [DONE],
      answer: (ask) => (ask.ask === "completion_result" && ++replies === 1 ? { type: "message", text: "/compact" } : { type: "yes" }),
    });
    expect(await h.run("Nothing much")).toBe("completed");
    expect(h.server.requests).toHaveLength(1);
    expect(said(h, "info").map((m) => m.text)).toContain("There is nothing to condense yet: the conversation is only its first round.");
  });
});

/** A request's messages without the cache breakpoints, which move to the newest user turns each round. */
const withoutBreakpoints = (request: RecordedRequest | undefined) => JSON.parse(sent(request).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "")) as unknown[];

describe("duplicate reads", () => {
  /** Two reads of a.txt, a rewrite of it, a read of the new text. */
  const rereadAfterWrite = (): ScriptTurn[] => [
    read("a.txt"),
    read("a.txt"),
    { text: "<write_to_file>\n<path>a.txt</path>\n<content>\nALPHA-CHANGED\n</content>\n</write_to_file>" },
    read("a.txt"),
    DONE,
  ];

  it("answers an unchanged re-read short, re-reads a changed file in full, and changes no earlier message while the context has room", async () => {
    const h = await open({ turns: rereadAfterWrite(), files: { "a.txt": FILE_A }, settings: { autoApproval: EDITS_ALLOWED } });
    expect(await h.run("Read a.txt twice")).toBe("completed");
    const [, second, third, , fifth] = h.server.requests;
    // The second read: the first copy stays, the second is a short note pointing at it.
    expect(sent(second).split("ALPHA-END")).toHaveLength(2);
    expect(sent(third)).toContain("a.txt is unchanged since your read of it in request 1");
    expect(sent(third).split("ALPHA-END")).toHaveLength(2);
    // After the change, the new text in full; the old copy stays as it was, so the prompt cache still matches it.
    expect(sent(fifth)).toContain("ALPHA-CHANGED");
    expect(sent(fifth)).toContain("ALPHA-END");
    expect(sent(fifth)).not.toContain(replacedReadNote("a.txt"));
    // Append-only: each request begins with every message of the one before, unchanged.
    for (let i = 1; i < h.server.requests.length; i++) {
      const before = withoutBreakpoints(h.server.requests[i - 1]);
      expect(withoutBreakpoints(h.server.requests[i]).slice(0, before.length), `request ${i + 1}`).toEqual(before);
    }
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("sends an OpenAI-compatible server the same stable prefix: the system prompt and every earlier message unchanged, request after request", async () => {
    const h = await open({ provider: "openai", turns: rereadAfterWrite(), files: { "a.txt": FILE_A }, settings: { autoApproval: EDITS_ALLOWED } });
    expect(await h.run("Read a.txt twice")).toBe("completed");
    const requests = h.server.requests.map((r) => r.body.messages as unknown[]);
    expect(requests).toHaveLength(5);
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1] as unknown[];
      expect(requests[i]?.slice(0, before.length), `request ${i + 1}`).toEqual(before);
    }
  });

  it("reads a small unchanged file again whole: its text costs less than a note about it", async () => {
    const h = await open({ turns: [read("tiny.txt"), read("tiny.txt"), DONE], files: { "tiny.txt": "TINY\n" } });
    expect(await h.run("Read tiny.txt twice")).toBe("completed");
    expect(sent(h.server.requests[2]).split("TINY")).toHaveLength(3);
    expect(sent(h.server.requests[2])).not.toContain("unchanged since your read");
  });

  it("shortens the superseded copies all at once when the conversation must shrink, in native mode too; a read of another range stays", async () => {
    const turns: ScriptTurn[] = [
      nativeRead("a.txt", "r1"),
      { toolCalls: [{ id: "r2", name: "read_file", input: { path: "a.txt", start_line: 1, end_line: 2 } }] },
      { toolCalls: [{ id: "w1", name: "write_to_file", input: { path: "a.txt", content: `${FILE_A}MORE\n` } }] },
      nativeRead("a.txt", "r3", { inputTokens: LIMIT + 100 }),
      SUMMARY,
      { toolCalls: [{ id: "done", name: "attempt_completion", input: { result: "Done." } }] },
    ];
    const h = await open({ turns, files: { "a.txt": FILE_A }, settings: { toolCallMode: "native", autoApproval: EDITS_ALLOWED } });
    expect(await h.run("Read a.txt")).toBe("completed");
    // Before the shrink, the first copy was whole in every request.
    expect(sent(h.server.requests[3])).toContain("ALPHA-END");
    expect(sent(h.server.requests[3])).not.toContain(replacedReadNote("a.txt"));
    // The summary request is the shrink: the first copy is a note there, the newest in full, the other range as it was.
    const summary = h.server.requests.find(isSummaryRequest) as RecordedRequest;
    // The summary request carries the history as text.
    const text = sent(summary);
    expect(text).toContain(replacedReadNote("a.txt"));
    expect(text).toContain("MORE");
    expect(text).toContain("1|alpha line\\n2|alpha line");
    // ALPHA-END twice: the rewrite's content and the newest read; the first read's copy is gone.
    expect(text.split("ALPHA-END")).toHaveLength(3);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });
});

describe("the history on disk", () => {
  it("keeps a replaced read as one small line, and a condensed and shortened history survives a resume", async () => {
    const turns: ScriptTurn[] = [read("a.txt"), read("b.txt"), { text: "<write_to_file>\n<path>a.txt</path>\n<content>\nALPHA-2\n</content>\n</write_to_file>" }, read("a.txt", { inputTokens: LIMIT + 100 }), SUMMARY, DONE];
    const h = await open({ turns, files: { "a.txt": FILE_A, "b.txt": FILE_B }, settings: { autoApproval: EDITS_ALLOWED } });
    expect(await h.run("Read and change")).toBe("completed");
    const taskId = h.controller.currentTask?.taskId as string;
    const file = join(h.storage, "tasks", taskId, "api_conversation_history.jsonl");
    const ops = (await readFile(file, "utf8")).trimEnd().split("\n").map((line) => Object.keys(JSON.parse(line) as object)[0]);
    expect(ops).toContain("replace");
    // One reset: the condense. The replaced read was not a rewrite of the whole history.
    expect(ops.filter((op) => op === "reset")).toHaveLength(1);
    const onDisk = await new TaskStorage(h.storage, taskId).loadApiHistory();
    expect(onDisk).toEqual(h.apiHistory());
    expect(JSON.stringify(onDisk[0])).toContain("SUMMARY-TEXT");

    // Resumed, the next request carries the condensed history as it was saved.
    h.server.enqueue(DONE);
    await h.controller.resumeTask(taskId);
    const question = await h.waitForAsk("completion_result");
    h.controller.answer(question.ts, { type: "message", text: "One more look." });
    expect(await h.finished()).toBe("completed");
    const resumed = h.server.requests.at(-1);
    expect(sent(resumed)).toContain("SUMMARY-TEXT");
    expect(sent(resumed)).toContain("One more look.");
    expect(sent(resumed)).not.toContain("ALPHA-END");
    expect(resumed && wireProblems(resumed)).toEqual([]);
  });
});

describe("a long task", () => {
  /**
   * 100 rounds (condensing four times or so), each reading a new file of about 600 tokens, in a 20,000-token window. The server
   * plays a provider that counts the prompt (4 characters a token) and refuses one that does not
   * fit; usage follows what was sent, so it rises every round until Tandem condenses.
   */
  it.each(["xml", "native"] as const)("runs 100 rounds without an overflow, condensing, every request well formed (%s)", async (mode) => {
    const ROUNDS = 100;
    let rounds = 0;
    let overflows = 0;
    const problems: string[] = [];
    const respond = (request: RecordedRequest): ScriptTurn => {
      const prompt = Math.ceil(JSON.stringify(request.body).length / 4);
      problems.push(...wireProblems(request).map((p) => `request ${rounds}: ${p}`));
      if (prompt > WINDOW) {
        overflows++;
        return { kind: "fault", fault: "context_window_exceeded" };
      }
      const usage = { inputTokens: prompt, outputTokens: 30 };
      if (isSummaryRequest(request)) return { text: `Summary after ${rounds} rounds: files f0..f${rounds - 1} were read.`, usage };
      rounds++;
      if (rounds === ROUNDS) return mode === "xml" ? { ...DONE, usage } : { toolCalls: [{ id: `done`, name: "attempt_completion", input: { result: "All read." } }], usage };
      const path = `f${rounds}.txt`;
      return mode === "xml" ? { text: `Reading ${path}.\n<read_file>\n<path>${path}</path>\n</read_file>`, usage } : { toolCalls: [{ id: `call_${rounds}`, name: "read_file", input: { path } }], usage };
    };
    const files: Record<string, string> = {};
    for (let i = 1; i < ROUNDS; i++) files[`f${i}.txt`] = `file ${i}\n${"some text of this file, ".repeat(100)}\n`;
    const h = await open({ respond, files, settings: { toolCallMode: mode } });
    expect(await h.run("Read every file")).toBe("completed");
    expect(rounds).toBe(ROUNDS);
    expect(overflows).toBe(0);
    expect(problems).toEqual([]);
    const condensed = said(h, "context_condensed");
    expect(condensed.length).toBeGreaterThan(0);
    expect(said(h, "context_truncated")).toEqual([]);
    expect(historyProblems(h.apiHistory())).toEqual([]);
    // Every round's own request stayed under the limit Tandem keeps, with room for the answer.
    const biggest = Math.max(...h.messages.filter((m: ChatMessage) => m.type === "say" && m.say === "api_req_started").map((m) => m.apiRequest?.tokensIn ?? 0));
    expect(biggest).toBeLessThan(WINDOW);
  }, 120_000);
});
