/**
 * The focus chain in the loop: the real Controller and Task, the real SDKs and the scripted model
 * server, a real temp workspace and storage. What the model is told (the prompt section, the
 * reminders, the person's edit, an unreadable list) is read from the request bodies the server
 * recorded; what the person sees from the chat.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { historyProblems } from "../support/history-checks";
import { approveAll, startHarness, type Answerer, type Harness, type HarnessOptions } from "../support/task-harness";
import type { ChatMessage } from "../../src/shared/messages";
import type { FocusChainItem } from "../../src/shared/focus-chain";
import { FocusChain } from "../../src/core/participants/focus-chain/focus-chain";

/** The task's focus chain participant: the checklist's one owner. */
const focusChainOf = (h: Harness) => h.controller.currentTask?.scope.participants.find(FocusChain);

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

async function open(options: Partial<HarnessOptions> & { turns: ScriptTurn[] }): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, ...options });
  await writeFile(join(harness.workspace, "notes.txt"), "NOTES-CONTENT\n");
  return harness;
}

/** A read of notes.txt, with a checklist when given. */
const read = (progress?: string): ScriptTurn => ({ text: `<read_file>\n<path>notes.txt</path>\n${progress === undefined ? "" : `<task_progress>\n${progress}\n</task_progress>\n`}</read_file>` });
const complete = (progress?: string): ScriptTurn => ({
  text: `<attempt_completion>\n<result>Done.</result>\n${progress === undefined ? "" : `<task_progress>\n${progress}\n</task_progress>\n`}</attempt_completion>`,
});

/** Every text the request's last message carries (text blocks and tool results, Anthropic's or OpenAI's shape). */
/** Everything after the last assistant turn: OpenAI's tool messages and the user message (the environment details last). */
function lastUserText(request: RecordedRequest | undefined): string {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  const after = messages.slice(messages.findLastIndex((m) => m.role === "assistant") + 1);
  return after.filter((m) => m.role === "user" || m.role === "tool").map((m) => textOf(m.content)).join("\n");
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block: { type?: string; text?: string; content?: unknown }) => block.text ?? textOf(block.content)).join("\n");
}

function systemPrompt(request: RecordedRequest | undefined): string {
  const system = request?.body.system as string | { text: string }[] | undefined;
  if (system !== undefined) return typeof system === "string" ? system : system.map((b) => b.text).join("");
  const first = (request?.body.messages as { role: string; content: string }[] | undefined)?.[0];
  return first?.role === "system" ? first.content : "";
}

const progressRows = (h: Harness): ChatMessage[] => h.messages.filter((m) => m.type === "say" && m.say === "task_progress");
const items = (...list: [string, boolean][]): FocusChainItem[] => list.map(([text, done]) => ({ text, done }));
const REMINDER = "<focus_chain_reminder>";
const said = (kind: string) => (m: ChatMessage) => m.type === "say" && m.say === kind;

describe("the model keeps the checklist in task_progress", () => {
  it("each update becomes the list (a chat row each), the tool runs as usual, and the prompt asks for it", async () => {
    const h = await open({ turns: [read("- [ ] Read the notes\n- [ ] Summarise them"), read("- [x] Read the notes\n- [ ] Summarise them"), complete("- [x] Read the notes\n- [x] Summarise them")] });
    expect(await h.run("summarise the notes")).toBe("completed");
    expect(systemPrompt(h.server.requests[0])).toContain("TASK PROGRESS");
    expect(systemPrompt(h.server.requests[0])).toContain("<task_progress>");
    // The tool got its own parameters only: the file was read.
    expect(lastUserText(h.server.requests[1])).toContain("NOTES-CONTENT");
    expect(progressRows(h).map((m) => m.focusChain)).toEqual([
      { items: items(["Read the notes", false], ["Summarise them", false]), by: "model" },
      { items: items(["Read the notes", true], ["Summarise them", false]), by: "model" },
      { items: items(["Read the notes", true], ["Summarise them", true]), by: "model" },
    ]);
    expect(progressRows(h)[1]?.text).toBe("- [x] Read the notes\n- [ ] Summarise them");
    expect(focusChainOf(h)?.items).toEqual(items(["Read the notes", true], ["Summarise them", true]));
    expect(focusChainOf(h)?.requestsSinceUpdate).toBe(0);
  });

  it.each(["anthropic", "openai"] as const)("native tool calls (%s): every spec offers task_progress, and the call's value is the list", async (provider) => {
    const h = await open({
      provider,
      settings: { toolCallMode: "native" },
      turns: [
        { toolCalls: [{ name: "read_file", input: { path: "notes.txt", task_progress: "- [ ] Read\n- [ ] Report" } }] },
        { toolCalls: [{ name: "attempt_completion", input: { result: "Done.", task_progress: "- [x] Read\n- [x] Report" } }] },
      ],
    });
    expect(await h.run("go")).toBe("completed");
    const tools = (h.server.requests[0]?.body.tools ?? []) as { name?: string; input_schema?: { properties: object }; function?: { parameters: { properties: object } } }[];
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(Object.keys((tool.input_schema ?? tool.function?.parameters)?.properties ?? {})).toContain("task_progress");
    expect(lastUserText(h.server.requests[1])).toContain("NOTES-CONTENT");
    expect(progressRows(h).map((m) => m.focusChain?.items)).toEqual([items(["Read", false], ["Report", false]), items(["Read", true], ["Report", true])]);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("an unreadable list leaves the old one, the tool still runs, and the next request says which line and why", async () => {
    const h = await open({ turns: [read("- [ ] First step"), read("Plan for today:\n- [x] First step"), complete("- [x] First step")] });
    expect(await h.run("go")).toBe("completed");
    const next = lastUserText(h.server.requests[2]);
    // The tool ran (the small file read again, whole: shorter than a note about it).
    expect(next.split("NOTES-CONTENT")).toHaveLength(2);
    expect(next).toContain('Your task_progress could not be read: this line is not a checklist item: "Plan for today:"');
    expect(next).toContain("The checklist is unchanged:\n- [ ] First step");
    expect(lastUserText(h.server.requests[1])).not.toContain("could not be read");
    expect(h.messages.some((m) => said("error")(m) && m.text?.includes("Plan for today:"))).toBe(true);
    // Only the two readable versions became the list.
    expect(progressRows(h).map((m) => m.focusChain?.items)).toEqual([items(["First step", false]), items(["First step", true])]);
    expect(h.controller.currentTask?.state.consecutiveMistakeCount).toBe(0);
  });

  it("with the focus chain off, the prompt and the specs say nothing of it", async () => {
    const h = await open({ settings: { focusChain: false, toolCallMode: "native" }, turns: [{ toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] }] });
    expect(await h.run("go")).toBe("completed");
    expect(systemPrompt(h.server.requests[0])).not.toContain("TASK PROGRESS");
    expect(JSON.stringify(h.server.requests[0]?.body.tools)).not.toContain("task_progress");
  });

  it("with the focus chain off, an XML task_progress is ignored", async () => {
    const h = await open({ settings: { focusChain: false }, turns: [read("- [ ] A"), complete()] });
    expect(await h.run("go")).toBe("completed");
    expect(progressRows(h)).toEqual([]);
    expect(lastUserText(h.server.requests[1])).toContain("NOTES-CONTENT");
  });
});

describe("the reminder", () => {
  it("comes with request 7 after 6 requests without an update, and not before (default interval)", async () => {
    const h = await open({ turns: [read(), read(), read(), read(), read(), read(), complete()] });
    expect(await h.run("go")).toBe("completed");
    const requests = h.server.requests;
    expect(requests).toHaveLength(7);
    for (const request of requests.slice(0, 6)) expect(lastUserText(request)).not.toContain(REMINDER);
    expect(lastUserText(requests[6])).toContain(REMINDER);
    expect(lastUserText(requests[6])).toContain("There is no checklist of this task yet");
  });

  it("carries the list as it stands, counts from the last update, and comes again after another interval", async () => {
    const h = await open({ settings: { focusChainReminderInterval: 2 }, turns: [read("- [x] Look\n- [ ] Fix"), read(), read(), read(), read(), complete("- [x] Look\n- [x] Fix")] });
    expect(await h.run("go")).toBe("completed");
    const has = h.server.requests.map((r) => lastUserText(r).includes(REMINDER));
    // Updated in answer 1; requests 2 and 3 go without; 4 reminds; 5 and 6 without... 6 reminds again.
    expect(has).toEqual([false, false, false, true, false, true]);
    expect(lastUserText(h.server.requests[3])).toContain("The checklist has not been updated for 2 requests. It stands at:\n- [x] Look\n- [ ] Fix");
  });
});

describe("completing with open items", () => {
  it("is held back once (the model hears which items are open); called again, it goes to the person", async () => {
    const h = await open({ turns: [read("- [x] Look\n- [ ] Fix\n- [ ] Test"), complete(), complete()] });
    expect(await h.run("go")).toBe("completed");
    const held = lastUserText(h.server.requests[2]);
    expect(held).toContain("The result was not shown to the person yet: the checklist still has 2 open items:\n- [ ] Fix\n- [ ] Test");
    expect(h.asks.filter((a) => a.ask === "completion_result")).toHaveLength(1);
    expect(h.messages.filter(said("completion_result"))).toHaveLength(1);
    expect(h.messages.some((m) => said("info")(m) && m.text?.includes("2 open checklist items"))).toBe(true);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("goes through at once when the same call ticks the last items", async () => {
    const h = await open({ turns: [read("- [ ] Look"), complete("- [x] Look")] });
    expect(await h.run("go")).toBe("completed");
    expect(h.server.requests).toHaveLength(2);
  });
});

describe("the person's edit", () => {
  /** Approves everything but edits, which wait for the test. */
  const holdEdits: Answerer = (ask) => (ask.ask === "tool" ? undefined : { type: "yes" });

  it("is saved as a chat row and reaches the next request with the new list; a list that does not fit is refused", async () => {
    const write: ScriptTurn = { text: "<write_to_file>\n<path>out.txt</path>\n<content>\nx\n</content>\n</write_to_file>" };
    const h = await open({ answer: holdEdits, turns: [read("- [ ] Look\n- [ ] Fix"), write, complete("- [x] Look\n- [x] Fix, carefully\n- [x] Add a test")] });
    await h.start("go");
    const question = await h.waitForAsk("tool");
    await expect(h.controller.editFocusChain([{ text: "   ", done: false }])).rejects.toThrow("The checklist was not changed: item 1 has no text.");
    await expect(h.controller.editFocusChain("- [ ] not a list")).rejects.toThrow("must be a list of items");
    await h.controller.editFocusChain(items(["Look", true], ["Fix, carefully", false], ["Add a test", false]));
    h.controller.answer(question.ts, { type: "yes" });
    expect(await h.finished()).toBe("completed");
    const next = lastUserText(h.server.requests[2]);
    expect(next).toContain("The person edited the checklist. It is now:\n- [x] Look\n- [ ] Fix, carefully\n- [ ] Add a test");
    expect(lastUserText(h.server.requests[1])).not.toContain("The person edited");
    expect(progressRows(h).map((m) => m.focusChain?.by)).toEqual(["model", "person", "model"]);
    // The chat record (what a reloaded panel reads) holds every version.
    const saved = h.controller.currentTask!.messages.chatMessages.filter(said("task_progress"));
    expect(saved[1]?.focusChain?.items).toEqual(items(["Look", true], ["Fix, carefully", false], ["Add a test", false]));
  });

  it("a list on an edit with a streamed preview: the preview becomes the question in place, and an edit by the person meanwhile wins", async () => {
    const write = (progress: string): ScriptTurn => ({ text: `<write_to_file>\n<path>out.txt</path>\n<content>\n${"line\n".repeat(40)}</content>\n<task_progress>\n${progress}\n</task_progress>\n</write_to_file>`, chunkSize: 8 });
    const h = await open({ answer: holdEdits, turns: [write("- [ ] Write\n- [ ] Check"), write("- [x] Write\n- [x] Check\n- [ ] Model's extra"), complete("- [x] Write\n- [x] Check")] });
    await h.start("go");
    const first = await h.waitForAsk("tool");
    // One row for the edit: the streamed preview turned into the question (no leftover partial row).
    expect(h.messages.filter((m) => m.tool?.tool === "write_to_file")).toHaveLength(1);
    expect(h.messages.some((m) => m.partial)).toBe(false);
    h.controller.answer(first.ts, { type: "yes" });
    await h.server.waitForRequests(2, 5_000);
    const second = await h.waitForAsk("tool").then(async (ask) => (ask.ts === first.ts ? h.waitForAsk("tool") : ask));
    // The first call's list came once the call was over.
    expect(progressRows(h).map((m) => m.focusChain?.items)).toEqual([items(["Write", false], ["Check", false])]);
    await h.controller.editFocusChain(items(["Write", true], ["Check", false]));
    h.controller.answer(second.ts, { type: "yes" });
    expect(await h.finished()).toBe("completed");
    // The second call's list was written before the person's edit: the edit stands, and the model hears of it.
    expect(progressRows(h).map((m) => [m.focusChain?.by, m.focusChain?.items.length])).toEqual([["model", 2], ["person", 2], ["model", 2]]);
    expect(lastUserText(h.server.requests[2])).toContain("The person edited the checklist. It is now:\n- [x] Write\n- [ ] Check");
  });

  it("is refused without a task", async () => {
    const h = await open({ turns: [] });
    await expect(h.controller.editFocusChain([])).rejects.toThrow("No task is open");
  });
});

describe("resume", () => {
  it("restores the list from the saved chat, and the reminder's count goes on from there", async () => {
    let replies = 0;
    const answer: Answerer = (ask) => (ask.ask === "completion_result" && replies++ === 1 ? { type: "message", text: "Also check the notes again." } : { type: "yes" });
    const h = await open({ answer, settings: { focusChainReminderInterval: 3 }, turns: [read("- [x] Read the notes"), complete(), read(), read(), complete()] });
    expect(await h.run("go")).toBe("completed");
    const taskId = h.controller.currentTask!.taskId;
    await h.controller.clearTask();
    await h.controller.resumeTask(taskId);
    expect(await h.finished()).toBe("completed");
    expect(focusChainOf(h)?.items).toEqual(items(["Read the notes", true]));
    // Request 2 went after the update; after the resume 3 and 4 follow, and 5 reminds with the restored list.
    const has = h.server.requests.map((r) => lastUserText(r).includes(REMINDER));
    expect(has).toEqual([false, false, false, false, true]);
    expect(lastUserText(h.server.requests[4])).toContain("It stands at:\n- [x] Read the notes");
  });
});
