/**
 * The approval policy through whole tasks: what runs without asking, what asks, and what the
 * command guard refuses even in YOLO mode.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_AUTO_APPROVAL } from "../../src/shared/settings";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});
async function open(options: HarnessOptions): Promise<Harness> {
  harness = await startHarness(options);
  return harness;
}

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const done = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const requestText = (h: Harness, n: number) => JSON.stringify(h.server.requests[n]?.body.messages ?? []);

describe("approvals", () => {
  it("refuses a destructive command even in YOLO mode, without running or asking", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [command("rm -rf ~"), done] });
    expect(await h.run("Clean up")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "command")).toHaveLength(0);
    expect(h.messages.some((m) => m.type === "say" && m.say === "error" && /command guard/.test(m.text ?? ""))).toBe(true);
    expect(requestText(h, 1)).toMatch(/command guard refused/);
  });

  it("runs a read-only command without asking when safe commands are auto-approved", async () => {
    const h = await open({
      provider: "openai",
      settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, executeSafeCommands: true } },
      answer: approveAll,
      turns: [command("ls"), done],
    });
    await writeFile(join(h.workspace, "visible.txt"), "x");
    expect(await h.run("List")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "command")).toHaveLength(0);
    expect(requestText(h, 1)).toContain("visible.txt");
  });

  it("asks for a command that writes, even with safe commands auto-approved, and the model's flag cannot loosen it", async () => {
    const h = await open({
      provider: "anthropic",
      settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, executeSafeCommands: true } },
      answer: (ask) => (ask.ask === "command" ? { type: "no", text: "not now" } : { type: "yes" }),
      turns: [command("echo hi > out.txt"), done],
    });
    expect(await h.run("Write")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "command")).toHaveLength(1);
    await expect(readFile(join(h.workspace, "out.txt"), "utf8")).rejects.toThrow();
    expect(requestText(h, 1)).toContain("not now");
  });

  it("always asks, even in YOLO mode, for a command naming a secret file", async () => {
    const h = await open({
      provider: "anthropic",
      settings: { yolo: true },
      answer: (ask) => (ask.ask === "command" ? { type: "no" } : { type: "yes" }),
      turns: [command("cat .env"), done],
    });
    await writeFile(join(h.workspace, ".env"), "TOKEN=secret");
    expect(await h.run("Show env")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "command")).toHaveLength(1);
    expect(requestText(h, 1)).not.toContain("TOKEN=secret");
  });

  it("never auto-approves reading outside the workspace unless that switch is on", async () => {
    const outsideName = `tandem-outside-${process.pid}-${Date.now()}.txt`;
    const h = await open({
      provider: "openai",
      answer: (ask) => (ask.ask === "tool" ? { type: "no" } : { type: "yes" }),
      turns: [{ text: `<read_file>\n<path>../${outsideName}</path>\n</read_file>` }, done],
    });
    await writeFile(join(h.workspace, "..", outsideName), "outside secret");
    expect(await h.run("Read outside")).toBe("completed");
    const asked = h.asks.filter((a) => a.ask === "tool");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.tool?.outsideWorkspace).toBe(true);
    expect(requestText(h, 1)).not.toContain("outside secret");
  });

  it("refuses to read an ignored file and tells the model why", async () => {
    const h = await open({ provider: "anthropic", settings: { yolo: true }, answer: approveAll, turns: [{ text: "<read_file>\n<path>private/notes.txt</path>\n</read_file>" }, done] });
    await writeFile(join(h.workspace, ".tandemignore"), "private/\n");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(h.workspace, "private"));
    await writeFile(join(h.workspace, "private", "notes.txt"), "hidden words");
    expect(await h.run("Read")).toBe("completed");
    expect(requestText(h, 1)).toContain("ignored by .tandemignore");
    expect(requestText(h, 1)).not.toContain("hidden words");
  });
});
