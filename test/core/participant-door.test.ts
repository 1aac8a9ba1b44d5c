/**
 * The one door into the loop: a participant that is not one of Tandem's own, added in a
 * test-only assembly (ControllerOptions.participants), joins every moment of the contract
 * (core/task/participant.ts) in the loop's order, what it adds reaches the model where the
 * contract says, and disposing the task disposes it. Seen from outside: the real Controller, the
 * real SDK and the scripted model server, native tool calls so that specs and calls are native.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolSpec } from "../../src/api/types";
import { PARTICIPANTS } from "../../src/core/controller/task-assembly";
import type { ArrivedCall, CallWatch, PersonWords, PromptRequest, RequestDraft, StartingCall, TaskBeginning, TaskOpening, TaskParticipant } from "../../src/core/task/participant";
import type { ToolCall } from "../../src/core/task/tool-call";
import type { ToolSet } from "../../src/core/task/tools/registry";
import type { AskResponse } from "../../src/shared/messages";
import type { RecordedRequest } from "../support/script";
import { approveAll, startHarness, type Harness } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** Logs every moment it joins, and leaves a mark where it may add something. */
class Probe implements TaskParticipant {
  readonly name = "probe";
  readonly log: string[] = [];
  disposed = 0;

  opened(opening: TaskOpening) {
    this.log.push(`opened:${opening.kind}`);
    return Promise.resolve();
  }
  beginning(start: TaskBeginning) {
    this.log.push(`beginning:${start.kind}`);
    return Promise.resolve(undefined);
  }
  personWords(words: PersonWords) {
    this.log.push("personWords");
    return Promise.resolve({ ...words, blocks: [...words.blocks, "<probe_block/>"] });
  }
  answerReceived(answer: AskResponse) {
    this.log.push(`answerReceived:${answer.type}`);
    return Promise.resolve("go_on" as const);
  }
  beforeRequest(draft: RequestDraft) {
    this.log.push("beforeRequest");
    draft.add("<probe_note/>");
    return Promise.resolve(undefined);
  }
  historyReady() {
    this.log.push("historyReady");
    return Promise.resolve();
  }
  systemPrompt(request: PromptRequest) {
    this.log.push("systemPrompt");
    return [`PROBE SECTION (${request.mode}, ${request.toolCallMode})`];
  }
  offeredTools(tools: ToolSet) {
    this.log.push("offeredTools");
    return tools;
  }
  toolSpecs(specs: readonly ToolSpec[]) {
    this.log.push("toolSpecs");
    return [...specs, { name: "probe_tool", description: "Offered by the probe.", inputSchema: { type: "object", properties: {} } }];
  }
  overflowed() {
    this.log.push("overflowed");
    return Promise.resolve(false);
  }
  mayShorten(reason: string) {
    this.log.push(`mayShorten:${reason}`);
    return Promise.resolve(true);
  }
  resolveCall(call: ToolCall) {
    this.log.push(`resolveCall:${call.name}`);
    return undefined;
  }
  callArrived({ call }: ArrivedCall) {
    if (!call.partial) this.log.push(`callArrived:${call.name}`);
    return undefined;
  }
  callStarting(call: StartingCall): Promise<CallWatch> {
    this.log.push(`callStarting:${call.name}`);
    return Promise.resolve({ ended: async (outcome) => void this.log.push(`callEnded:${call.name}:${"failed" in outcome ? "failed" : outcome.kind}`) });
  }
  callSettled(call: ToolCall) {
    this.log.push(`callSettled:${call.name}`);
    return Promise.resolve();
  }
  roundDone(round: number) {
    this.log.push(`roundDone:${round}`);
    return Promise.resolve();
  }
  taskCompleted() {
    this.log.push("taskCompleted");
    return Promise.resolve();
  }
  cancelled(cancel: { readonly wasFinished: boolean }) {
    this.log.push(`cancelled:${cancel.wasFinished ? "after the end" : "running"}`);
    return Promise.resolve();
  }
  dispose() {
    this.disposed++;
  }
}

const textOf = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.messages ?? []);
const systemOf = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.system ?? "");

describe("a participant of a test-only assembly", () => {
  it("joins every moment in the loop's order, adds where the contract says, and is disposed with the task", async () => {
    const probe = new Probe();
    harness = await startHarness({
      provider: "anthropic",
      answer: approveAll,
      settings: { toolCallMode: "native" },
      // First, so that it hears each moment before Tandem's own participants decide it.
      participants: [() => probe, ...PARTICIPANTS],
      turns: [
        { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
        { toolCalls: [{ name: "write_to_file", input: { path: "out.txt", content: "written\n" } }] },
        { kind: "fault", fault: "context_window_exceeded" },
        { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] },
      ],
    });
    await writeFile(join(harness.workspace, "notes.txt"), "NOTES\n");
    expect(await harness.run("Read notes.txt and write out.txt")).toBe("completed");

    const round = (n: number, call: string, outcome: string) => ["beforeRequest", "historyReady", "systemPrompt", "offeredTools", "toolSpecs", `resolveCall:${call}`, `callArrived:${call}`, `callStarting:${call}`, `callEnded:${call}:${outcome}`, `callSettled:${call}`, `roundDone:${n}`];
    expect(probe.log).toEqual([
      "opened:new",
      "beginning:new",
      "personWords",
      ...round(1, "read_file", "ok"),
      // write_to_file asks the person: the approval is the person's answer.
      ...round(2, "write_to_file", "ok").flatMap((m) => (m === "callEnded:write_to_file:ok" ? ["answerReceived:yes", m] : [m])),
      // The provider refuses the third request as too long: asked first, then the context window shortens, and it goes again.
      "beforeRequest",
      "historyReady",
      "systemPrompt",
      "offeredTools",
      "toolSpecs",
      "overflowed",
      "mayShorten:context_window_exceeded",
      "resolveCall:attempt_completion",
      "callArrived:attempt_completion",
      "callStarting:attempt_completion",
      "answerReceived:yes",
      "callEnded:attempt_completion:task_completed",
      "callSettled:attempt_completion",
      "roundDone:3",
      "taskCompleted",
    ]);

    const [first, , , fourth] = harness.server.requests;
    // Its block follows the person's words; its note joins the request, before the environment details that end it.
    expect(textOf(first)).toContain("<probe_block/>");
    expect(textOf(first).indexOf("<probe_note/>")).toBeLessThan(textOf(first).indexOf("<environment_details>"));
    // Its section follows the base prompt and comes before Tandem's own participants' sections (the mode's).
    expect(systemOf(first)).toContain("PROBE SECTION (act, native)");
    expect(systemOf(first).indexOf("PROBE SECTION")).toBeLessThan(systemOf(first).indexOf("MODE: ACT"));
    expect(JSON.stringify(fourth?.body.tools)).toContain("probe_tool");

    expect(probe.disposed).toBe(0);
    await harness.controller.clearTask();
    // Moving on from a completed task is no cancel of a running one; disposing the task disposes its participants.
    expect(probe.log.at(-1)).toBe("cancelled:after the end");
    expect(probe.disposed).toBe(1);
  });

  it("is asked first where a moment decides, and its decision holds: a start it stops makes no request", async () => {
    const stopper: TaskParticipant = { name: "stopper", beginning: async () => "The probe stopped the task." };
    harness = await startHarness({ provider: "anthropic", answer: approveAll, participants: [() => stopper, ...PARTICIPANTS], turns: [] });
    expect(await harness.run("Anything")).toBe("aborted");
    expect(harness.server.requests).toHaveLength(0);
    expect(harness.messages.some((m) => m.type === "say" && m.say === "error" && m.text === "The probe stopped the task.")).toBe(true);
  });
});
