/**
 * A bad parameter value, through the real Task: the executor reads parameters by each tool's
 * schema before the tool sees the call, so the model gets one error naming the parameter, nothing
 * runs or asks, and it counts as a mistake (two in a row end a YOLO task at a limit of two).
 */
import { afterEach, describe, expect, it } from "vitest";
import { approveAll, startHarness, type Harness } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const xml = (name: string, params: Record<string, string>) => ({
  text: `<${name}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join("\n")}\n</${name}>`,
});

describe("a bad parameter value", () => {
  it.each([
    ["a number", xml("read_file", { path: "a.txt", start_line: "two" }), 'start_line must be a whole number from 1 up; got \\"two\\"'],
    ["a boolean", xml("list_files", { path: ".", recursive: "yes" }), 'recursive must be \\"true\\" or \\"false\\"; got \\"yes\\"'],
    ["JSON", xml("ask_followup_question", { question: "Which?", options: "[Yes, No]" }), "options must be a JSON array of strings such as"],
    ["a number of seconds", xml("execute_command", { command: "echo hi", timeout: "-1" }), "timeout must be a number of seconds above 0"],
  ])("(%s) reaches the model as one error naming it, and counts as a mistake", async (_kind, call, error) => {
    const h = (harness = await startHarness({ provider: "anthropic", settings: { yolo: true, mistakeLimit: 2 }, answer: approveAll, turns: [call, call] }));
    expect(await h.run("Go")).toBe("mistake_limit");
    expect(h.server.requests).toHaveLength(2);
    const result = JSON.stringify(((h.server.requests[1]?.body.messages ?? []) as unknown[]).at(-1));
    expect(result).toContain(error);
    expect(result.match(/<error>/g)).toHaveLength(1);
    expect(h.asks).toHaveLength(0);
    expect(h.messages.filter((m) => m.type === "say" && (m.say === "tool" || m.say === "command"))).toHaveLength(0);
  });
});
