/**
 * Plan and Act through the real Controller and Task, the real SDKs and the scripted model server,
 * in a temp workspace: what Plan mode refuses (nothing written or run), how plan_mode_respond asks
 * and goes on, the switch to Act carrying the plan on, the mode surviving a resume, and a model
 * per mode. What the model saw is read from the requests the server recorded.
 */
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/script";
import { startHarness, type Answerer, type Harness, type HarnessOptions } from "../support/task-harness";
import { TaskStorage } from "../../src/core/storage/task-storage";
import { serverScript, stdio } from "../mcp/support";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const call = (tool: string, params: Record<string, string>) => ({
  text: `<${tool}>\n${Object.entries(params).map(([name, value]) => `<${name}>${value}</${name}>`).join("\n")}\n</${tool}>`,
});
const writeJs = call("write_to_file", { path: "app.js", content: "\nconsole.log(1);\n" });
const touch = call("execute_command", { command: "touch made.txt", requires_approval: "false" });
const readNotes = call("read_file", { path: "notes.txt" });
const DONE = call("attempt_completion", { result: "Done." });

/** The text of a request's messages (Anthropic's wire format). */
function texts(request: RecordedRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as { content: string | { type: string; text?: string }[] }[];
  return messages.map((m) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? `[${b.type}]`).join("\n")));
}
const lastUserText = (request: RecordedRequest | undefined) => texts(request).at(-1) ?? "";
const systemPrompt = (request: RecordedRequest | undefined) => ((request?.body.system ?? []) as { text: string }[]).map((b) => b.text).join("");

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The person: approves everything, and answers the plan's questions as `plan` says. */
function person(plan: (text: string) => { type: "yes" } | { type: "message"; text: string }): Answerer {
  return (ask) => (ask.ask === "plan_mode_respond" ? plan(ask.text ?? "") : { type: "yes" });
}

async function open(options: Partial<HarnessOptions>): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", turns: [], ...options, settings: { yolo: true, ...options.settings } });
  await writeFile(join(harness.workspace, "notes.txt"), "NOTES-CONTENT\n");
  return harness;
}

describe("Plan mode", () => {
  it("refuses edits, commands and attempt_completion with a clear message, writes and runs nothing, and runs read-only tools", async () => {
    const h = await open({
      // Each refusal is a mistake (the prompt said so): three in a row would stop the task.
      settings: { defaultMode: "plan", mistakeLimit: 5 },
      turns: [writeJs, touch, DONE, readNotes, call("plan_mode_respond", { response: "PLAN: add app.js" })],
      answer: person(() => ({ type: "yes" })),
    });
    // YOLO is on: the refusals are the mode's, not an approval's.
    expect(await h.run("Make app.js")).toBe("completed");
    const [, afterWrite, afterCommand, afterDone, afterRead] = h.server.requests;
    expect(lastUserText(afterWrite)).toContain("write_to_file is not available in Plan mode");
    expect(lastUserText(afterWrite)).toContain("Nothing was done");
    expect(lastUserText(afterCommand)).toContain("execute_command is not available in Plan mode");
    expect(lastUserText(afterDone)).toContain("present your plan (or ask about it) with plan_mode_respond");
    expect(lastUserText(afterRead)).toContain("NOTES-CONTENT");
    expect(await exists(join(h.workspace, "app.js"))).toBe(false);
    expect(await exists(join(h.workspace, "made.txt"))).toBe(false);
    // The person saw each refusal as the call's row, not run, with a calm note for them: no error row.
    expect(h.messages.filter((m) => m.type === "say" && m.say === "error")).toEqual([]);
    const refused = h.messages.filter((m) => m.type === "say" && m.say === "tool" && m.tool?.refusedIn);
    expect(refused.map((m) => [m.tool?.tool, m.tool?.path, m.tool?.refusedIn])).toEqual([
      ["write_to_file", "app.js", "plan"],
      ["execute_command", undefined, "plan"],
      ["attempt_completion", undefined, "plan"],
    ]);
    expect(refused[0]?.text).toBe("Plan mode only explores and plans, so nothing was changed or run. Switch to Act when you want the plan carried out.");
    expect(refused[2]?.text).toMatch(/^Plan mode does not finish tasks/);
  });

  it("offers only the read-only tools and plan_mode_respond, and says so in the prompt's mode section", async () => {
    const h = await open({ settings: { defaultMode: "plan" }, turns: [call("plan_mode_respond", { response: "PLAN" })], answer: person(() => ({ type: "yes" })) });
    expect(await h.run("Plan it")).toBe("completed");
    const prompt = systemPrompt(h.server.requests[0]);
    expect(prompt).toContain("MODE: PLAN");
    expect(prompt).toContain("## plan_mode_respond");
    expect(prompt).toContain("## read_file");
    for (const absent of ["## write_to_file", "## replace_in_file", "## execute_command", "## attempt_completion", "MODE: ACT"]) expect(prompt).not.toContain(absent);
  });

  it("native tool calls: Plan mode's specs leave out the tools that change things, Act mode's leave out plan_mode_respond", async () => {
    const plan = { toolCalls: [{ name: "plan_mode_respond", input: { response: "PLAN" } }] };
    const h = await open({ settings: { defaultMode: "plan", toolCallMode: "native" }, turns: [plan, { toolCalls: [{ name: "attempt_completion", input: { result: "Done." } }] }], answer: switchToActAtPlan() });
    expect(await h.run("Plan it")).toBe("completed");
    const names = (request: RecordedRequest | undefined) => ((request?.body.tools ?? []) as { name: string }[]).map((t) => t.name);
    const [planning, acting] = h.server.requests;
    expect(names(planning)).toContain("plan_mode_respond");
    expect(names(planning)).toContain("read_file");
    expect(names(planning)).not.toContain("write_to_file");
    expect(names(planning)).not.toContain("execute_command");
    expect(names(acting)).toContain("write_to_file");
    expect(names(acting)).not.toContain("plan_mode_respond");
  });

  it("plan_mode_respond asks with its options and the picked one reaches the model; needs_more_exploration goes on without asking", async () => {
    const h = await open({
      settings: { defaultMode: "plan" },
      turns: [
        call("plan_mode_respond", { response: "Two ways: cache or not.", options: '["Use a cache","Keep it simple"]' }),
        { text: `Thinking it over.\n\n${call("plan_mode_respond", { response: "Let me look at the notes first.", needs_more_exploration: "true" }).text}` },
        readNotes,
        call("plan_mode_respond", { response: "FINAL PLAN" }),
      ],
      answer: person((text) => (text === "FINAL PLAN" ? { type: "yes" } : { type: "message", text: "Keep it simple" })),
    });
    expect(await h.run("Plan it")).toBe("completed");
    const planAsks = h.asks.filter((a) => a.ask === "plan_mode_respond");
    // Asked twice: the first plan and the final one; exploring asked nothing.
    expect(planAsks.map((a) => a.text)).toEqual(["Two ways: cache or not.", "FINAL PLAN"]);
    expect(planAsks[0]?.options).toEqual(["Use a cache", "Keep it simple"]);
    const [, afterPick, afterExploring] = h.server.requests;
    expect(lastUserText(afterPick)).toContain("<user_message>\nKeep it simple\n</user_message>");
    expect(lastUserText(afterExploring)).toContain("Go on exploring");
    // The exploring message still showed in the chat, as the model's text.
    const said = h.messages.filter((m) => m.type === "say" && m.say === "text").map((m) => m.text);
    expect(said).toContain("Let me look at the notes first.");
    expect(said).toContain("Thinking it over.");
  });
});

/** Answers a plan by switching to Act (as the panel's switch does); approves the rest. */
function switchToActAtPlan(): Answerer {
  return (ask) => {
    if (ask.ask !== "plan_mode_respond") return { type: "yes" };
    queueMicrotask(() => harness?.controller.setMode("act"));
    return undefined;
  };
}

describe("Plan mode and MCP tools", () => {
  it("runs a server's tool marked readOnlyHint and refuses one that is not", async () => {
    const useMcp = (tool: string, args: string) => call("use_mcp_tool", { server_name: "everything", tool_name: tool, arguments: args });
    const h = await open({
      settings: { defaultMode: "plan" },
      mcp: { servers: { everything: stdio(serverScript("server-everything"), "stdio") } },
      turns: [useMcp("echo", '{"message": "ECHOED-IN-PLAN"}'), useMcp("toggle-simulated-logging", "{}"), call("plan_mode_respond", { response: "PLAN" })],
      answer: person(() => ({ type: "yes" })),
    });
    expect(await h.run("Plan with MCP")).toBe("completed");
    const [, afterEcho, afterToggle] = h.server.requests;
    expect(lastUserText(afterEcho)).toContain("ECHOED-IN-PLAN");
    expect(lastUserText(afterToggle)).toContain("use_mcp_tool is not available in Plan mode");
    // The person's row of the refused call names the server and the tool, as its approval would.
    const refused = h.messages.find((m) => m.type === "say" && m.say === "tool" && m.tool?.refusedIn);
    expect(refused?.tool).toMatchObject({ tool: "use_mcp_tool", refusedIn: "plan", content: "{}", mcp: { server: "everything", tool: "toggle-simulated-logging" } });
    expect(refused?.tool?.mcp?.description, "with the server's description of it").toBeTruthy();
    // Offered in Plan mode, for the servers' read-only tools.
    expect(systemPrompt(h.server.requests[0])).toContain("## use_mcp_tool");
  });
});

describe("switching to Act", () => {
  it("carries the plan on: the same write_to_file runs, the model is told once, and the prompt's mode section changes", async () => {
    const h = await open({ settings: { defaultMode: "plan" }, turns: [writeJs, call("plan_mode_respond", { response: "PLAN: write app.js" }), writeJs, DONE], answer: switchToActAtPlan() });
    expect(await h.run("Make app.js")).toBe("completed");
    const [refused, planned, acting, done] = h.server.requests;
    expect(lastUserText(planned)).toContain("write_to_file is not available in Plan mode");
    // The plan's question closed with the switch; the next request says the mode changed.
    expect(lastUserText(acting)).toContain("they switched to Act mode");
    expect(lastUserText(acting)).toContain("[The person switched to Act mode.");
    expect(lastUserText(done)).not.toContain("switched to Act mode");
    expect(await readFile(join(h.workspace, "app.js"), "utf8")).toBe("console.log(1);\n");
    expect(systemPrompt(refused)).toContain("MODE: PLAN");
    expect(systemPrompt(acting)).toContain("MODE: ACT");
    expect(systemPrompt(acting)).toContain("## write_to_file");
    // The conversation went on: the plan is in the history the Act request carries.
    expect(texts(acting).join("\n")).toContain("PLAN: write app.js");
  });

  it("plan_mode_respond in Act mode is refused and the model pointed to attempt_completion", async () => {
    const h = await open({ turns: [call("plan_mode_respond", { response: "PLAN" }), DONE], answer: () => ({ type: "yes" }) });
    expect(await h.run("Do it")).toBe("completed");
    expect(lastUserText(h.server.requests[1])).toContain("plan_mode_respond is for Plan mode, and the task is in Act mode");
    expect(systemPrompt(h.server.requests[0])).toContain("MODE: ACT");
    expect(systemPrompt(h.server.requests[0])).not.toContain("## plan_mode_respond");
  });
});

describe("the mode is the task's", () => {
  it("survives a resume: the task opens in Plan mode again, and its requests are planned", async () => {
    const h = await open({ settings: { defaultMode: "act" }, turns: [call("plan_mode_respond", { response: "PLAN" })] });
    h.controller.setMode("plan");
    await h.start("Plan it");
    await h.waitForAsk("plan_mode_respond");
    const taskId = h.controller.currentTask?.taskId ?? "";
    await h.controller.clearTask();
    // The next task would start in Plan too; put the switch back to Act to see the saved mode win.
    h.controller.setMode("act");
    expect(await new TaskStorage(h.storage, taskId).loadMode()).toBe("plan");

    h.server.enqueue(call("plan_mode_respond", { response: "PLAN AGAIN" }));
    await h.controller.resumeTask(taskId);
    expect(h.controller.mode).toBe("plan");
    const resume = await h.waitForAsk("resume_task");
    h.controller.answer(resume.ts, { type: "yes" });
    await h.server.waitForRequests(2);
    expect(systemPrompt(h.server.requests[1])).toContain("MODE: PLAN");
    expect(lastUserText(h.server.requests[1])).not.toContain("switched to");
  });

  it("a resume that asks for Act tells the model of the switch in its first request", async () => {
    const h = await open({ settings: { defaultMode: "plan" }, turns: [call("plan_mode_respond", { response: "PLAN" })] });
    await h.start("Plan it");
    await h.waitForAsk("plan_mode_respond");
    const taskId = h.controller.currentTask?.taskId ?? "";
    await h.controller.clearTask();

    h.server.enqueue(writeJs, DONE);
    await h.controller.resumeTask(taskId, { mode: "act" });
    h.controller.answer((await h.waitForAsk("resume_task")).ts, { type: "yes" });
    h.controller.answer((await h.waitForAsk("completion_result")).ts, { type: "yes" });
    expect(await h.finished()).toBe("completed");
    expect(lastUserText(h.server.requests[1])).toContain("[The person switched to Act mode.");
    expect(await readFile(join(h.workspace, "app.js"), "utf8")).toBe("console.log(1);\n");
    expect(await new TaskStorage(h.storage, taskId).loadMode()).toBe("act");
  });

  it("a damaged mode record is an error naming the file", async () => {
    const h = await open({});
    const storage = new TaskStorage(h.storage, "damaged");
    await storage.saveMode("plan");
    await writeFile(join(storage.dir, "task_metadata.json"), '{"mode": "sideways"}');
    await expect(storage.loadMode()).rejects.toThrow(/task_metadata\.json names no mode Tandem knows \("sideways"\)/);
    await writeFile(join(storage.dir, "task_metadata.json"), "{not json");
    await expect(storage.loadMode()).rejects.toThrow(/task_metadata\.json is not valid JSON/);
  });
});

describe("a model per mode", () => {
  it("with planModeModelId, Plan requests go to that model and Act requests to the configured one", async () => {
    const h = await open({ settings: { defaultMode: "plan", planModeModelId: "claude-opus-5-5" }, turns: [readNotes, call("plan_mode_respond", { response: "PLAN" }), DONE], answer: switchToActAtPlan() });
    expect(await h.run("Plan, then do")).toBe("completed");
    expect(h.server.requests.map((r) => r.body.model)).toEqual(["claude-opus-5-5", "claude-opus-5-5", "claude-sonnet-5-5"]);
  });

  it("without it, both modes use the configured model", async () => {
    const h = await open({ settings: { defaultMode: "plan" }, turns: [call("plan_mode_respond", { response: "PLAN" }), DONE], answer: switchToActAtPlan() });
    expect(await h.run("Plan, then do")).toBe("completed");
    expect(h.server.requests.map((r) => r.body.model)).toEqual(["claude-sonnet-5-5", "claude-sonnet-5-5"]);
  });
});
