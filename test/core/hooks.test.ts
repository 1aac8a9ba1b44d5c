/**
 * Hooks in the loop, with real executables (bash and node scripts, chmod +x) in a temp workspace,
 * through the real Controller and Task and the scripted model server. What a hook did is read
 * from the file system, from the files the hooks write, and from the request bodies the server
 * recorded.
 */
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceHooks, type HookTrustRequest } from "../../src/core/hooks";
import { DEFAULT_AGENT_SETTINGS } from "../../src/shared/settings";
import type { SandboxStatus } from "../../src/shared/sandbox-status";
import type { ChatMessage, HookRunInfo } from "../../src/shared/messages";
import { requestText } from "../cli/cli-harness";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";
import { serverScript, stdio } from "../mcp/support";

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const DONE = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const readNotes = { text: "<read_file>\n<path>notes.txt</path>\n</read_file>" };
const readOther = { text: "<read_file>\n<path>other.txt</path>\n</read_file>" };

async function open(options: Partial<HarnessOptions>): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [DONE], hooks: { globalFolder: true, trustWorkspace: () => true }, ...options });
  return harness;
}

/** Writes an executable hook file: `folder` is relative to the workspace (or absolute). */
async function hook(h: Harness, folder: string, point: string, script: string): Promise<string> {
  const dir = folder.startsWith("/") ? folder : join(h.workspace, folder);
  await mkdir(dir, { recursive: true });
  const file = join(dir, point);
  await writeFile(file, script);
  await chmod(file, 0o755);
  return file;
}

const hookRows = (h: Harness): HookRunInfo[] => h.messages.filter((m) => m.type === "say" && m.say === "hook").map((m) => m.hook!);
const infos = (h: Harness) => h.messages.filter((m) => m.type === "say" && m.say === "info").map((m) => m.text ?? "");
/** Running, and not a zombie waiting for a parent (a container's init may never reap one). */
const isAlive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
const lines = async (file: string) => (existsSync(file) ? (await readFile(file, "utf8")).split("\n").filter(Boolean) : []);

/** The README's example: a bash PreToolUse hook that blocks writes to *.js files (no jq needed). */
const BLOCK_JS = `#!/usr/bin/env bash
input=$(cat)
if printf '%s' "$input" | grep -q '"toolName":"write_to_file"' && printf '%s' "$input" | grep -Eq '"path":"[^"]*\\.js"'; then
  echo '{"cancel": true, "errorMessage": "Writes to .js files are blocked in this repository; write TypeScript."}'
fi
`;

describe("PreToolUse", () => {
  it.each(["anthropic", "openai"] as const)("a bash hook blocks write_to_file of *.js: the file is not written and the model is told why; a .ts write goes through (%s)", async (provider) => {
    const h = await open({ provider, turns: [write("src/app.js", "console.log(1);"), write("src/app.ts", "console.log(1);"), DONE], settings: { autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, editFiles: true } } });
    await hook(h, ".tandem/hooks", "PreToolUse", BLOCK_JS);
    expect(await h.run("Write the app")).toBe("completed");
    expect(existsSync(join(h.workspace, "src/app.js"))).toBe(false);
    expect(await readFile(join(h.workspace, "src/app.ts"), "utf8")).toBe("console.log(1);\n");
    const second = requestText(h.server.requests[1]!);
    expect(second).toContain("a PreToolUse hook");
    expect(second).toContain("Writes to .js files are blocked in this repository");
    const blockedRow = h.messages.find((m) => m.type === "say" && m.say === "tool" && m.tool?.blocked);
    expect(blockedRow?.tool).toMatchObject({ tool: "write_to_file", path: "src/app.js" });
    // Three calls (two writes and the completion): one PreToolUse row each; the blocked one ran no PostToolUse.
    expect(hookRows(h).map((r) => `${r.point}:${r.outcome}`)).toEqual(["PreToolUse:cancelled", "PreToolUse:ok", "PreToolUse:ok"]);
  });
});

describe("MCP tools pass the same hooks", () => {
  it("a native MCP function call goes through PreToolUse (as use_mcp_tool) and PostToolUse gets its result", async () => {
    const call = (id: string, name: string, input: Record<string, unknown>) => ({ toolCalls: [{ id, name, input }] });
    const h = await open({
      settings: { toolCallMode: "native", autoApproval: { ...DEFAULT_AGENT_SETTINGS.autoApproval, useMcp: true } },
      mcp: { servers: { everything: stdio(serverScript("server-everything"), "stdio") } },
      turns: [call("c1", "mcp__everything__get-sum", { a: 20, b: 22 }), call("c2", "mcp__everything__echo", { message: "hi" }), call("c3", "attempt_completion", { result: "done" })],
    });
    const post = join(h.storage, "post.log");
    await hook(h, ".tandem/hooks", "PreToolUse", `#!/bin/sh\nif grep -q '"tool_name":"echo"'; then echo '{"cancel":true,"errorMessage":"no echoing"}'; fi\n`);
    await hook(h, ".tandem/hooks", "PostToolUse", `#!/bin/sh\ncat >> ${JSON.stringify(post)}\necho >> ${JSON.stringify(post)}\n`);
    expect(await h.run("Add and echo")).toBe("completed");
    expect(requestText(h.server.requests[1]!)).toContain("42");
    expect(requestText(h.server.requests[2]!)).toContain("no echoing");
    const runs = (await lines(post)).map((line) => (JSON.parse(line) as { postToolUse: { toolName: string; parameters: Record<string, string>; result: string } }).postToolUse);
    expect(runs[0]).toMatchObject({ toolName: "use_mcp_tool", parameters: { server_name: "everything", tool_name: "get-sum" } });
    expect(runs[0]?.result).toContain("42");
    // The blocked echo ran no PostToolUse; the completion did.
    expect(runs.map((r) => r.toolName)).toEqual(["use_mcp_tool", "attempt_completion"]);
  });
});

describe("TaskStart and what every hook reads", () => {
  it("a node TaskStart hook's contextModification reaches the first request, and its stdin holds the documented fields", async () => {
    const h = await open({});
    const seen = join(h.storage, "taskstart-input.json");
    await hook(
      h,
      ".clinerules/hooks",
      "TaskStart",
      `#!/usr/bin/env node
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  require("fs").writeFileSync(${JSON.stringify(seen)}, input);
  console.log(JSON.stringify({ contextModification: "TASKSTART-CONTEXT: the build runs with make." }));
});
`,
    );
    expect(await h.run("Fix the build")).toBe("completed");
    expect(requestText(h.server.requests[0]!)).toContain("TASKSTART-CONTEXT: the build runs with make.");
    expect(requestText(h.server.requests[1] ?? h.server.requests[0]!)).toContain("TASKSTART-CONTEXT");
    const input = JSON.parse(await readFile(seen, "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({ hookName: "TaskStart", taskId: h.controller.currentTask?.taskId, workspaceRoots: [h.workspace], taskStart: { prompt: "Fix the build", images: 0 } });
    expect(Number.isNaN(Date.parse(String(input.timestamp)))).toBe(false);
  });

  it("global hooks need no trust and run before the workspace's; contextModifications are joined in that order", async () => {
    const h = await open({ hooks: { globalFolder: true, trustWorkspace: () => true } });
    await hook(h, join(h.storage, "hooks"), "TaskStart", `#!/bin/sh\necho '{"contextModification":"FROM-GLOBAL"}'\n`);
    await hook(h, ".clinerules/hooks", "TaskStart", `#!/bin/sh\necho '{"contextModification":"FROM-CLINERULES"}'\n`);
    await hook(h, ".tandem/hooks", "TaskStart", `#!/bin/sh\necho '{"contextModification":"FROM-TANDEM"}'\n`);
    expect(await h.run("go")).toBe("completed");
    const first = requestText(h.server.requests[0]!);
    const at = ["FROM-GLOBAL", "FROM-CLINERULES", "FROM-TANDEM"].map((m) => first.indexOf(m));
    expect(at.every((i) => i > 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(hookRows(h).map((r) => r.source)).toEqual(["global", "workspace", "workspace"]);
  });

  it("a TaskStart cancel stops the task before any request, saying why", async () => {
    const h = await open({});
    await hook(h, ".tandem/hooks", "TaskStart", `#!/bin/sh\necho '{"cancel":true,"errorMessage":"No tasks on Fridays."}'\n`);
    expect(await h.run("go")).toBe("aborted");
    expect(h.server.requests).toHaveLength(0);
    expect(h.messages.some((m) => m.type === "say" && m.say === "error" && m.text?.includes("No tasks on Fridays."))).toBe(true);
  });
});

describe("TaskResume", () => {
  it("runs when the person resumes a saved task; its contextModification reaches the next request", async () => {
    const h = await open({ answer: undefined, turns: [write("a.txt", "x"), DONE] });
    await h.start("Write a.txt");
    await h.waitForAsk("tool");
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    const id = h.controller.currentTask!.taskId;
    const seen = join(h.storage, "resume.json");
    await hook(h, ".tandem/hooks", "TaskResume", `#!/bin/sh\ncat > ${JSON.stringify(seen)}\necho '{"contextModification":"RESUME-CONTEXT"}'\n`);
    await h.controller.resumeTask(id);
    const resume = await h.waitForAsk("resume_task");
    h.controller.answer(resume.ts, { type: "message", text: "go on please" });
    const result = await h.waitForAsk("completion_result");
    h.controller.answer(result.ts, { type: "yes" });
    expect(await h.finished()).toBe("completed");
    expect(requestText(h.server.requests.at(-1)!)).toContain("RESUME-CONTEXT");
    expect(JSON.parse(await readFile(seen, "utf8"))).toMatchObject({ hookName: "TaskResume", taskId: id, taskResume: { prompt: "go on please", wasCompleted: false } });
  });
});

describe("TaskCancel", () => {
  const APPEND = (file: string) => `#!/usr/bin/env bash\ncat > /dev/null\necho "cancelled at $(date +%s%N)" >> ${JSON.stringify(file)}\n`;

  it("runs once on cancel (not again when the task is disposed), and not on completion", async () => {
    const h = await open({ answer: undefined, turns: [write("a.txt", "x"), DONE] });
    const log = join(h.storage, "cancel.log");
    await hook(h, ".tandem/hooks", "TaskCancel", APPEND(log));
    await h.start("Write a.txt");
    await h.waitForAsk("tool");
    await h.controller.cancelTask();
    expect(await h.finished()).toBe("aborted");
    await h.controller.clearTask();
    expect(await lines(log)).toHaveLength(1);

    // Completed: accepting the result and moving on is not a cancel.
    await h.controller.newTask("Just finish");
    const result = await h.waitForAsk("completion_result");
    h.controller.answer(result.ts, { type: "yes" });
    expect(await h.finished()).toBe("completed");
    await h.controller.cancelTask();
    await h.controller.clearTask();
    expect(await lines(log)).toHaveLength(1);
  });
});

describe("bad hooks are shown and never stop the task", () => {
  it("a hook that sleeps past its timeout is killed with everything it started, reported, and the task goes on", async () => {
    const h = await open({ settings: { hookTimeoutSeconds: 1 } });
    const pids = join(h.storage, "pids");
    await hook(h, ".tandem/hooks", "TaskStart", `#!/usr/bin/env bash\necho $$ > ${JSON.stringify(pids)}\nsleep 60 &\necho $! >> ${JSON.stringify(pids)}\nwait\necho '{"contextModification":"TOO-LATE"}'\n`);
    expect(await h.run("go")).toBe("completed");
    const [row] = hookRows(h);
    expect(row).toMatchObject({ point: "TaskStart", outcome: "timeout" });
    expect(row?.problem).toContain("ran longer than 1 s");
    const started = (await lines(pids)).map(Number);
    expect(started).toHaveLength(2);
    for (const pid of started) expect(isAlive(pid)).toBe(false);
    expect(requestText(h.server.requests[0]!)).not.toContain("TOO-LATE");
  });

  it("what a hook leaves running in the background when it exits is killed, and does not hold the hook open", async () => {
    const h = await open({ settings: { hookTimeoutSeconds: 20 } });
    const pids = join(h.storage, "pids");
    await hook(h, ".tandem/hooks", "TaskStart", `#!/usr/bin/env bash\nsleep 60 &\necho $! > ${JSON.stringify(pids)}\necho '{"contextModification":"LEFT-A-SLEEP"}'\n`);
    expect(await h.run("go")).toBe("completed");
    expect(hookRows(h)[0]).toMatchObject({ point: "TaskStart", outcome: "ok" });
    expect(requestText(h.server.requests[0]!)).toContain("LEFT-A-SLEEP");
    const [sleeper] = (await lines(pids)).map(Number);
    expect(isAlive(sleeper!)).toBe(false);
  });

  it.each([
    ["prints garbage", `echo 'this is not json'`, "its output is not JSON"],
    ["prints two objects", `echo '{"cancel":true}'; echo '{"cancel":true}'`, "more than one JSON value"],
    ["misspells a field", `echo '{"cancell":true}'`, 'unknown field "cancell"'],
    ["gives cancel a wrong type", `echo '{"cancel":"yes"}'`, '"cancel" must be a boolean'],
    ["exits non-zero without output", `echo oops >&2; exit 3`, "exited with code 3"],
    ["prints without end", `yes '{"cancel":true}'`, "printed more than 64 KB and was stopped"],
  ])("a PreToolUse hook that %s is shown as failed and treated as saying nothing", async (_name, body, problem) => {
    const h = await open({ turns: [readNotes, DONE] });
    await writeFile(join(h.workspace, "notes.txt"), "NOTES-CONTENT\n");
    await hook(h, ".tandem/hooks", "PreToolUse", `#!/bin/sh\ncat > /dev/null\n${body}\n`);
    expect(await h.run("Read the notes")).toBe("completed");
    expect(requestText(h.server.requests[1]!)).toContain("NOTES-CONTENT");
    const [row] = hookRows(h);
    expect(row).toMatchObject({ point: "PreToolUse", outcome: "failed" });
    expect(row?.problem).toContain(problem);
  });

  it("a cancel printed with a non-zero exit is still honoured (safe side)", async () => {
    const h = await open({ turns: [readNotes, DONE] });
    await writeFile(join(h.workspace, "notes.txt"), "NOTES-CONTENT\n");
    await hook(h, ".tandem/hooks", "PreToolUse", `#!/bin/sh\nif grep -q '"toolName":"read_file"'; then echo '{"cancel":true,"errorMessage":"no reading today"}'; exit 1; fi\n`);
    expect(await h.run("Read the notes")).toBe("completed");
    expect(requestText(h.server.requests[1]!)).toContain("no reading today");
    expect(requestText(h.server.requests[1]!)).not.toContain("NOTES-CONTENT");
  });

  it("a file that cannot be a hook (not executable, an extension) is said once and not run", async () => {
    const h = await open({ turns: [readNotes, readNotes, DONE] });
    await writeFile(join(h.workspace, "notes.txt"), "n\n");
    await mkdir(join(h.workspace, ".tandem/hooks"), { recursive: true });
    await writeFile(join(h.workspace, ".tandem/hooks/PreToolUse"), "#!/bin/sh\necho '{\"cancel\":true}'\n");
    await hook(h, ".tandem/hooks", "PostToolUse.sh", "#!/bin/sh\necho '{\"cancel\":true}'\n");
    expect(await h.run("go")).toBe("completed");
    const said = infos(h);
    expect(said.filter((t) => t.includes("is not executable"))).toHaveLength(1);
    expect(said.filter((t) => t.includes("without an extension"))).toHaveLength(1);
    expect(hookRows(h)).toEqual([]);
  });
});

describe("PostToolUse and UserPromptSubmit", () => {
  it("PostToolUse gets the tool's name, parameters, result and success; its contextModification goes with the next request", async () => {
    const h = await open({ turns: [readNotes, DONE] });
    await writeFile(join(h.workspace, "notes.txt"), "NOTES-CONTENT\n");
    const seen = join(h.storage, "post.json");
    await hook(h, ".tandem/hooks", "PostToolUse", `#!/usr/bin/env node
const input = require("fs").readFileSync(0, "utf8");
const data = JSON.parse(input).postToolUse;
if (data.toolName === "read_file") require("fs").writeFileSync(${JSON.stringify(seen)}, input);
console.log(JSON.stringify({ contextModification: "POST-SAW-" + data.toolName }));
`);
    expect(await h.run("Read the notes")).toBe("completed");
    const post = (JSON.parse(await readFile(seen, "utf8")) as { postToolUse: Record<string, unknown> }).postToolUse;
    expect(post).toMatchObject({ toolName: "read_file", parameters: { path: "notes.txt" }, success: true });
    expect(String(post.result)).toContain("NOTES-CONTENT");
    expect(typeof post.executionTimeMs).toBe("number");
    expect(requestText(h.server.requests[1]!)).toContain("POST-SAW-read_file");
  });

  it("a UserPromptSubmit cancel stops the first prompt before any request", async () => {
    const h = await open({});
    await hook(h, ".tandem/hooks", "UserPromptSubmit", `#!/bin/sh\nif grep -q 'password'; then echo '{"cancel":true,"errorMessage":"Do not paste passwords."}'; fi\n`);
    expect(await h.run("my password is hunter2, deploy")).toBe("aborted");
    expect(h.server.requests).toHaveLength(0);
    expect(h.messages.some((m) => m.type === "say" && m.say === "error" && m.text?.includes("Do not paste passwords."))).toBe(true);
  });

  it("a withheld reply is not sent: the question is asked again and the next reply goes on", async () => {
    const ask = { text: "<ask_followup_question>\n<question>Which port?</question>\n</ask_followup_question>" };
    let replies = 0;
    const h = await open({
      turns: [ask, DONE],
      answer: (m) => (m.ask === "followup" ? { type: "message", text: replies++ === 0 ? "use password hunter2" : "port 8080" } : { type: "yes" }),
    });
    await hook(h, ".tandem/hooks", "UserPromptSubmit", `#!/bin/sh\nif grep -q 'password'; then echo '{"cancel":true,"errorMessage":"Do not paste passwords."}'; fi\n`);
    expect(await h.run("Set up the server")).toBe("completed");
    expect(h.asks.filter((a) => a.ask === "followup")).toHaveLength(2);
    const second = requestText(h.server.requests[1]!);
    expect(second).toContain("port 8080");
    expect(second).not.toContain("hunter2");
    expect(second).toContain("withheld a message");
  });
});

describe("trust", () => {
  it("an untrusted workspace hook does not run and the chat says once how to trust it; trusted it runs; changed after trust it asks again", async () => {
    const asked: HookTrustRequest[] = [];
    let answer = false;
    const h = await open({ turns: [readNotes, DONE], hooks: { trustWorkspace: (r) => (asked.push(r), answer), trustHint: "TRUST-HINT" } });
    await writeFile(join(h.workspace, "notes.txt"), "n\n");
    const ran = join(h.storage, "ran.log");
    const file = await hook(h, ".tandem/hooks", "PreToolUse", `#!/bin/sh\necho ran >> ${JSON.stringify(ran)}\n`);
    await hook(h, ".tandem/hooks", "PostToolUse", `#!/bin/sh\necho ran >> ${JSON.stringify(ran)}\n`);

    expect(await h.run("go")).toBe("completed");
    expect(await lines(ran)).toHaveLength(0);
    expect(infos(h).filter((t) => t.includes("were not run") && t.includes("TRUST-HINT"))).toHaveLength(1);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.hooks.map((x) => x.point).sort()).toEqual(["PostToolUse", "PreToolUse"]);

    // The same hooks, unchanged: the answer is remembered (no new question). A yes for a new fingerprint runs them.
    answer = true;
    h.server.enqueue(readNotes, DONE);
    expect(await h.run("again")).toBe("completed");
    expect(asked).toHaveLength(1);
    h.controller.hooks.askAgain();
    h.server.enqueue(readNotes, DONE);
    expect(await h.run("and again")).toBe("completed");
    expect(asked).toHaveLength(2);
    // read_file and attempt_completion, each with its PreToolUse and PostToolUse.
    expect(await lines(ran)).toHaveLength(4);

    // Changed after trust: a new fingerprint, a new question; refused, it does not run.
    answer = false;
    await writeFile(file, `#!/bin/sh\necho changed >> ${JSON.stringify(ran)}\n`);
    h.server.enqueue(readNotes, DONE);
    expect(await h.run("once more")).toBe("completed");
    expect(asked).toHaveLength(3);
    expect(asked[2]?.fingerprint).not.toBe(asked[1]?.fingerprint);
    expect(await lines(ran)).toHaveLength(4);
  });

  it("without a host that trusts, workspace hooks never run (hooks switched off: not even looked at)", async () => {
    const h = await open({ hooks: { globalFolder: true }, settings: { hooks: false } });
    const ran = join(h.storage, "ran.log");
    await hook(h, ".tandem/hooks", "TaskStart", `#!/bin/sh\necho ran >> ${JSON.stringify(ran)}\n`);
    await hook(h, join(h.storage, "hooks"), "TaskStart", `#!/bin/sh\necho ran >> ${JSON.stringify(ran)}\n`);
    expect(await h.run("go")).toBe("completed");
    expect(await lines(ran)).toHaveLength(0);
    expect(hookRows(h)).toEqual([]);
  });
});

describe("the sandbox required and missing", () => {
  it("refuses workspace hooks as it refuses commands, saying so; global hooks still run", async () => {
    const h = await open({});
    const ran = join(h.storage, "ran.log");
    await hook(h, ".tandem/hooks", "TaskStart", `#!/bin/sh\necho workspace >> ${JSON.stringify(ran)}\n`);
    await hook(h, join(h.storage, "hooks"), "TaskStart", `#!/bin/sh\necho global >> ${JSON.stringify(ran)}\n`);
    const rows: HookRunInfo[] = [];
    const refusing = { sandbox: { refusesCommands: true } as SandboxStatus, confine: async () => undefined };
    const hooks = new WorkspaceHooks({ globalFolder: join(h.storage, "hooks"), trustWorkspace: () => true }).forTask({
      taskId: "t",
      roots: [h.workspace],
      settings: () => DEFAULT_AGENT_SETTINGS,
      commands: refusing,
      say: async (_kind, _text, extra) => void (extra?.hook && rows.push(extra.hook)),
    });
    expect((await hooks.run("TaskStart", { prompt: "go", images: 0 })).cancel).toBeUndefined();
    expect(await lines(ran)).toEqual(["global"]);
    expect(rows.map((r) => `${r.source}:${r.outcome}`)).toEqual(["global:ok", "workspace:failed"]);
    expect(rows[1]?.problem).toContain("the command sandbox is required (mode on) but not available");
  });
});

describe("TaskComplete and PreCompact", () => {
  it("PreCompact runs before a condense (/compact here); its cancel leaves the conversation as it was", async () => {
    const SUMMARY = { text: "SUMMARY-TEXT: the notes were read." };
    const compactOnce = (h: () => number) => (m: ChatMessage) => (m.type === "ask" && m.ask === "completion_result" && h() === 1 ? { type: "message" as const, text: "/compact" } : { type: "yes" as const });
    let replies = 0;
    // Two rounds before the result: the first round alone is never condensed.
    const h = await open({ turns: [readNotes, readOther, DONE, SUMMARY], answer: compactOnce(() => ++replies) });
    await writeFile(join(h.workspace, "other.txt"), "o\n");
    await writeFile(join(h.workspace, "notes.txt"), "n\n");
    const seen = join(h.storage, "condense.json");
    await hook(h, ".tandem/hooks", "PreCompact", `#!/bin/sh\ncat > ${JSON.stringify(seen)}\n`);
    expect(await h.run("Read the notes")).toBe("completed");
    expect(JSON.parse(await readFile(seen, "utf8"))).toMatchObject({ hookName: "PreCompact", preCompact: { reason: "compact" } });
    expect(h.messages.filter((m) => m.type === "say" && m.say === "context_condensed")).toHaveLength(1);

    await hook(h, ".tandem/hooks", "PreCompact", `#!/bin/sh\necho '{"cancel":true,"errorMessage":"no summaries"}'\n`);
    replies = 0;
    h.server.enqueue(readNotes, readOther, DONE);
    const requestsBefore = h.server.requests.length;
    expect(await h.run("Read them again")).toBe("completed");
    const second = h.messages.slice(h.messages.findIndex((m) => m.type === "say" && m.say === "task" && m.text === "Read them again"));
    expect(second.filter((m) => m.type === "say" && m.say === "context_condensed")).toHaveLength(0);
    // No summary request was made: only the task's own three.
    expect(h.server.requests.length - requestsBefore).toBe(3);
    expect(hookRows(h).at(-1)).toMatchObject({ point: "PreCompact", outcome: "cancelled", message: "no summaries" });
  });


  it("TaskComplete runs once with the accepted result", async () => {
    const h = await open({});
    const seen = join(h.storage, "complete.json");
    await hook(h, ".tandem/hooks", "TaskComplete", `#!/bin/sh\ncat >> ${JSON.stringify(seen)}\necho >> ${JSON.stringify(seen)}\n`);
    expect(await h.run("go")).toBe("completed");
    await h.controller.clearTask();
    const runs = await lines(seen);
    expect(runs).toHaveLength(1);
    expect(JSON.parse(runs[0]!)).toMatchObject({ hookName: "TaskComplete", taskComplete: { result: "Done." } });
  });

  it("PreCompact runs before the conversation is truncated; its cancel keeps the conversation whole", async () => {
    const turns = [readNotes, readNotes, { kind: "fault" as const, fault: "context_window_exceeded" as const }, DONE];
    // A failed request is not retried by hand: the second task ends when its request fails.
    const h = await open({ turns, answer: (m) => (m.ask === "api_req_failed" ? { type: "no" } : { type: "yes" }) });
    await writeFile(join(h.workspace, "notes.txt"), "n\n");
    const seen = join(h.storage, "compact.json");
    await hook(h, ".tandem/hooks", "PreCompact", `#!/bin/sh\ncat > ${JSON.stringify(seen)}\n`);
    expect(await h.run("Read a lot")).toBe("completed");
    expect(JSON.parse(await readFile(seen, "utf8"))).toMatchObject({ hookName: "PreCompact", preCompact: { reason: "context_window_exceeded" } });
    expect(h.messages.some((m: ChatMessage) => m.type === "say" && m.say === "context_truncated")).toBe(true);

    await hook(h, ".tandem/hooks", "PreCompact", `#!/bin/sh\necho '{"cancel":true,"errorMessage":"keep it all"}'\n`);
    const truncations = () => h.messages.filter((m) => m.type === "say" && m.say === "context_truncated").length;
    const before = truncations();
    h.server.enqueue(readNotes, { kind: "fault", fault: "context_window_exceeded" });
    expect(await h.run("Read again")).toBe("failed");
    expect(truncations()).toBe(before);
    expect(hookRows(h).at(-1)).toMatchObject({ point: "PreCompact", outcome: "cancelled", message: "keep it all" });
  });
});
