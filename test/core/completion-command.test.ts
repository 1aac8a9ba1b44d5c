/**
 * attempt_completion's suggested command, through the real executor, command policy and terminal:
 * offered, run only after approval or auto-approval, its output shown, skipped when declined; and
 * moving on from the offer accepts the result. Real SDKs against the scripted server.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AskMessage } from "../../src/shared/messages";
import { startHarness, type Answerer, type Harness } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const finish = (command: string) => ({ text: `<attempt_completion>\n<result>The page is built.</result>\n<command>${command}</command>\n</attempt_completion>` });
const ofCompletion = (m: { tool?: { tool: string } }) => m.tool?.tool === "attempt_completion";

const plainFinish = { text: "<attempt_completion>\n<result>The page is built.</result>\n</attempt_completion>" };

async function run(command: string, options: { answer?: Answerer; yolo?: boolean }) {
  harness = await startHarness({ provider: "anthropic", turns: [finish(command), plainFinish], answer: options.answer, settings: { yolo: options.yolo ?? false } });
  return harness;
}

describe("a result's suggested command", () => {
  it("is asked as the result's command and runs once the person presses Run", async () => {
    const h = await run("echo shown > shown.txt", { answer: (ask) => ({ type: ask.ask === "command" ? "yes" : "no" }) });
    expect(await h.run("Build the page")).toBe("completed");
    const offer = h.asks.find((a) => a.ask === "command");
    expect(offer && ofCompletion(offer)).toBe(true);
    expect(offer?.text).toContain("echo shown > shown.txt");
    expect(existsSync(join(h.workspace, "shown.txt"))).toBe(true);
    expect(h.asks.map((a) => a.ask)).toEqual(["command", "completion_result"]);
    expect(h.messages.find((m) => m.ts === offer?.ts)).toMatchObject({ outcome: "yes" });
  });

  it("runs by itself under auto-approval (YOLO) and shows its output", async () => {
    const h = await run("echo from-the-demo", { yolo: true, answer: () => ({ type: "yes" }) });
    expect(await h.run("Build the page")).toBe("completed");
    expect(h.asks.map((a) => a.ask)).toEqual(["completion_result"]);
    expect(h.messages.some((m) => m.type === "say" && m.say === "command" && ofCompletion(m))).toBe(true);
    const output = h.messages.filter((m) => m.type === "say" && m.say === "command_output").map((m) => m.text).join("");
    expect(output).toContain("from-the-demo");
  });

  it("is never run when declined, and the task still completes", async () => {
    const h = await run("echo x > declined.txt", { answer: (ask) => ({ type: ask.ask === "command" ? "no" : "yes" }) });
    expect(await h.run("Build the page")).toBe("completed");
    expect(existsSync(join(h.workspace, "declined.txt"))).toBe(false);
    expect(h.asks.map((a) => a.ask)).toEqual(["command", "completion_result"]);
  });

  it("is refused by the command guard even in YOLO, and the model is told why", async () => {
    const h = await run("rm -rf /", { yolo: true, answer: () => ({ type: "yes" }) });
    expect(await h.run("Build the page")).toBe("completed");
    expect(h.messages.some((m) => m.type === "say" && m.say === "error" && /guard refused/.test(m.text ?? ""))).toBe(true);
    expect(h.messages.some((m) => m.type === "say" && m.say === "command")).toBe(false);
    expect(JSON.stringify(h.server.requests[1]?.body.messages)).toMatch(/guard refused/);
  });

  it("leaving the task while it is offered accepts the result: completed, not cancelled", async () => {
    const h = await run("echo x > left.txt", {});
    await h.start("Build the page");
    const offer: AskMessage = await h.waitForAsk("command");
    expect(ofCompletion(offer)).toBe(true);
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("completed");
    expect(existsSync(join(h.workspace, "left.txt"))).toBe(false);
    expect(h.messages.some((m) => m.type === "say" && m.say === "info" && /cancel/i.test(m.text ?? ""))).toBe(false);
  });
});
