/**
 * A round is a value: each round ends one way, and the loop acts on that alone. Seen from the
 * outside of the real Task (the real Controller, SDK and scripted model server):
 * recursivelyMakeClineRequests returns "no_tool" for a round that used no tool (initiateTaskLoop
 * then reminds the model once), and the task's outcome only when the task ended;
 * each ending gives its own outcome, and a retried attempt stays inside its round.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Task } from "../../src/core/task";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.dispose();
  harness = undefined;
});

/** Every value recursivelyMakeClineRequests resolved to ("no_tool" or the task's outcome), in the order they resolved (inner rounds first). */
function recordRounds(): string[] {
  const seen: string[] = [];
  const original = Task.prototype.recursivelyMakeClineRequests;
  vi.spyOn(Task.prototype, "recursivelyMakeClineRequests").mockImplementation(async function (this: Task, content, how) {
    const rounds = await original.call(this, content, how);
    seen.push(rounds.kind === "no_tool" ? "no_tool" : rounds.outcome);
    return rounds;
  });
  return seen;
}

async function open(options: Omit<HarnessOptions, "provider">): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, ...options });
  return harness;
}

const read = { text: "<read_file>\n<path>notes.txt</path>\n</read_file>" };
const completion = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

/** The user messages of request n, as text. */
function lastUserText(h: Harness, n: number): string {
  const messages = (h.server.requests[n]?.body.messages ?? []) as { role: string; content: unknown }[];
  return JSON.stringify(messages.at(-1)?.content ?? "");
}

describe("how a round ends", () => {
  it("a round without a tool returns no_tool; the loop reminds the model once and goes on", async () => {
    const seen = recordRounds();
    const h = await open({ turns: [read, { text: "It says hello." }, completion] });
    await writeFile(join(h.workspace, "notes.txt"), "hello\n");
    expect(await h.run("Read notes.txt")).toBe("completed");
    // read_file (tools ran: recursion), the text-only round (no_tool, up through the recursion), then the completion.
    expect(seen).toEqual(["no_tool", "no_tool", "completed"]);
    const reminder = lastUserText(h, 2);
    expect(reminder).toMatch(/use a tool/i);
    expect(reminder.match(/use a tool/gi)).toHaveLength(1);
    expect(h.server.requests).toHaveLength(3);
  });

  it("each ending is its own outcome: completed, mistake_limit, failed", async () => {
    let h = await open({ turns: [completion] });
    expect(await h.run("Finish")).toBe("completed");
    await h.dispose();

    h = await open({ settings: { yolo: true, mistakeLimit: 2 }, turns: [{ text: "one" }, { text: "two" }, completion] });
    expect(await h.run("Do it")).toBe("mistake_limit");
    expect(h.server.requests).toHaveLength(2);
    await h.dispose();

    // The provider fails for good and the person stops: the round ends the task as failed, its row says so.
    h = await open({
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      settings: { requestRetries: 0 },
      answer: (ask) => (ask.ask === "api_req_failed" ? { type: "no" } : { type: "yes" }),
      turns: [{ kind: "fault", fault: "bad_request" }],
    });
    expect(await h.run("Try")).toBe("failed");
    const row = h.messages.find((m) => m.type === "say" && m.say === "api_req_started");
    expect(row?.apiRequest?.outcome).toBe("failed");
    expect(h.asks.map((a) => a.ask)).toEqual(["api_req_failed"]);
  });

  it("a retried attempt stays inside its round: one request row, one round, the same request sent again", async () => {
    const seen = recordRounds();
    const h = await open({
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      turns: [{ kind: "fault", fault: "overloaded" }, completion],
    });
    expect(await h.run("Finish")).toBe("completed");
    expect(seen).toEqual(["completed"]);
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[1]?.body.messages).toEqual(h.server.requests[0]?.body.messages);
    expect(h.messages.filter((m) => m.type === "say" && m.say === "api_req_started")).toHaveLength(1);
  });
});
