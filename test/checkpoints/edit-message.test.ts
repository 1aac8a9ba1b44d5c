/**
 * Editing one of the person's messages, through the real Controller, Task, SDK, scripted model
 * server and git checkpoints: the task goes back to where the conversation stood when the message
 * was said (its files too, if the person says so), and goes on from the edited text. The next
 * request carries the edited text and nothing the model said after the old one; the money spent
 * stays in the totals.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/shared/messages";
import { sumUsage } from "../../src/shared/usage";
import { startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
/** Approves everything but leaves the result's question open, as a person reading it would. */
const approveButResult: HarnessOptions["answer"] = (ask) => (ask.ask === "completion_result" ? undefined : { type: "yes" });
const usage = { inputTokens: 1000, outputTokens: 100 };

async function open(turns: HarnessOptions["turns"]): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveButResult, checkpoints: true, turns });
  return harness;
}

const feedback = (messages: readonly ChatMessage[], text: string) => messages.find((m) => m.type === "say" && m.say === "user_feedback" && m.text === text);

async function reply(h: Harness, text: string): Promise<void> {
  const ask = await h.waitForAsk("completion_result");
  h.controller.answer(ask.ts, { type: "message", text });
}

describe("editing one of the person's messages", () => {
  it("takes a reply back to where it was said, files too, and goes on from the edited text", async () => {
    const h = await open([
      { ...write("a.txt", "one"), usage },
      { ...done("Wrote a.txt."), usage },
      { ...write("b.txt", "BEE-FROM-THE-OLD-REPLY"), usage },
      { ...done("Wrote b.txt."), usage },
      { ...write("c.txt", "see"), usage },
      { ...done("Wrote c.txt."), usage },
    ]);
    await h.start("Write a.txt");
    await reply(h, "Also write b.txt");
    await waitForText(h, "Wrote b.txt.");
    await h.waitForAsk("completion_result");
    expect(existsSync(join(h.workspace, "b.txt"))).toBe(true);
    const billed = sumUsage(h.controller.messages);
    const old = feedback(h.controller.messages, "Also write b.txt");
    const requestsBefore = h.server.requests.length;

    const files = await h.controller.editMessage(h.controller.currentTask!.taskId, old!.ts, { text: "Also write c.txt", images: [], restoreFiles: true });
    expect(files?.deleted).toEqual(["b.txt"]);
    expect(existsSync(join(h.workspace, "b.txt"))).toBe(false);
    // The money spent after the old reply stays counted.
    expect(sumUsage(h.controller.messages).cost).toBeCloseTo(billed.cost);
    await waitForText(h, "Wrote c.txt.");

    const next = JSON.stringify(h.server.requests[requestsBefore]?.body.messages);
    expect(next).toContain("Also write c.txt");
    expect(next).not.toContain("Also write b.txt");
    expect(next).not.toContain("BEE-FROM-THE-OLD-REPLY");
    expect(next).not.toContain("Wrote b.txt.");
    // What came before the old reply stays: the task and a.txt's write. The reply answered the
    // round that presented the first result, so that round is asked again with the edited reply.
    expect(next).toContain("Write a.txt");
    expect(next).toContain("The content was successfully saved to a.txt.");
    expect(next).toContain("<feedback>\\nAlso write c.txt\\n</feedback>");
    expect(await readFile(join(h.workspace, "c.txt"), "utf8")).toBe("see\n");
    // The chat shows the edited reply once, the old one not at all, and the totals grew by the new requests only.
    expect(feedback(h.controller.messages, "Also write b.txt")).toBeUndefined();
    expect(h.controller.messages.filter((m) => m.type === "say" && m.say === "user_feedback").map((m) => m.text)).toEqual(["Also write c.txt"]);
    expect(h.controller.messages.find((m) => m.type === "say" && m.say === "checkpoint_restored")).toMatchObject({ editedMessage: true, removedRequests: { requests: 3 } });
    expect(sumUsage(h.controller.messages).cost).toBeGreaterThan(billed.cost);
  });

  it("edits the task's first message: the task begins again from it, the files kept when the person says so, and the model is told", async () => {
    const h = await open([{ ...write("a.txt", "OLD-TASK-FILE"), usage }, { ...done("Wrote a.txt."), usage }, { ...write("z.txt", "zed"), usage }, { ...done("Wrote z.txt."), usage }]);
    await h.start("Write a.txt");
    await h.waitForAsk("completion_result");
    const requestsBefore = h.server.requests.length;
    const first = h.controller.messages[0]!;
    await h.controller.editMessage(h.controller.currentTask!.taskId, first.ts, { text: "Write z.txt instead", images: [], restoreFiles: false });
    await waitForText(h, "Wrote z.txt.");
    const next = h.server.requests[requestsBefore]?.body.messages as { role: string }[];
    expect(next).toHaveLength(1);
    expect(JSON.stringify(next)).toContain("<task>\\nWrite z.txt instead\\n</task>");
    expect(JSON.stringify(next)).toContain("The files were NOT put back");
    expect(JSON.stringify(next)).not.toContain("OLD-TASK-FILE");
    // Kept as asked: the old step's file is still there.
    expect(await readFile(join(h.workspace, "a.txt"), "utf8")).toBe("OLD-TASK-FILE\n");
    const chat = h.controller.messages;
    expect(chat[0]).toMatchObject({ say: "task", text: "Write z.txt instead" });
    expect(chat[1]).toMatchObject({ say: "checkpoint_restored", removedRequests: { requests: 2 } });
  });

  it("refuses while the task works, an empty edit, and files without a checkpoint at that point", async () => {
    const h = await open([{ ...write("a.txt", "one"), usage }, { text: "slow ".repeat(400), chunkSize: 4, delayMs: 5 }, { ...done("Done."), usage }]);
    await h.start("Write a.txt");
    const taskId = h.controller.currentTask!.taskId;
    await until(() => h.server.requests.length === 2);
    const first = h.controller.messages[0]!;
    await expect(h.controller.editMessage(taskId, first.ts, { text: "x", images: [], restoreFiles: false })).rejects.toThrow(/still working/);
    await h.waitForAsk("completion_result");
    await expect(h.controller.editMessage(taskId, first.ts, { text: "  ", images: [], restoreFiles: false })).rejects.toThrow(/empty/);
    const said = h.controller.messages.find((m) => m.type === "say" && m.say === "api_req_started")!;
    await expect(h.controller.editMessage(taskId, said.ts, { text: "x", images: [], restoreFiles: false })).rejects.toThrow("Only your own messages can be edited.");
  });
});

/** Until the result `text` is shown, and its question asks. */
async function waitForText(h: Harness, text: string): Promise<void> {
  await until(() => h.controller.messages.some((m) => m.type === "say" && m.say === "completion_result" && m.text === text));
  await until(() => h.controller.openQuestion?.kind === "completion_result");
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
