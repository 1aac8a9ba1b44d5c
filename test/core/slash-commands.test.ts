/**
 * Slash commands and workflows through the whole loop: the real Controller and Task, the real
 * SDKs and the scripted model server, real files in a temp workspace. What a command becomes is
 * read from the request the server recorded; the chat keeps the text as typed.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AskMessage } from "../../src/shared/messages";
import { historyProblems } from "../support/history-checks";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";
import { WORKFLOW_LIMIT_BYTES } from "../../src/core/slash";
import { serverScript, stdio } from "../mcp/support";

let harness: Harness | undefined;
const outside: string[] = [];

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const dir of outside.splice(0)) await rm(dir, { recursive: true, force: true });
});

const DONE = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

async function open(options: Partial<HarnessOptions> & { files?: Record<string, string>; global?: Record<string, string> } = {}): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [DONE], workflows: { globalFolder: true }, ...options });
  for (const [name, text] of Object.entries(options.files ?? {})) await put(harness.workspace, name, text);
  for (const [name, text] of Object.entries(options.global ?? {})) await put(join(harness.storage, "workflows"), name, text);
  return harness;
}

async function put(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

/** A request's user message texts, in order (Anthropic blocks or OpenAI strings). */
function userTexts(h: Harness, request: number): string[] {
  const messages = (h.server.requests[request]?.body.messages ?? []) as { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[];
  return messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text ?? JSON.stringify(b.content ?? "")).join("\n")));
}

const firstText = (h: Harness) => userTexts(h, 0)[0] ?? "";
const lastText = (h: Harness, request: number) => userTexts(h, request).at(-1) ?? "";
const said = (h: Harness, kind: string) => h.messages.filter((m) => m.type === "say" && m.say === kind).map((m) => m.text ?? "");

describe("workflows as the task's first message", () => {
  it.each(["anthropic", "openai"] as const)("a workspace workflow's text reaches the first request in its block, the person's words after it; the chat shows what was typed (%s)", async (provider) => {
    const h = await open({ provider, files: { ".clinerules/workflows/deploy.md": "1. Run the DEPLOY-STEP.\n2. Tag the release." } });
    expect(await h.run("/deploy to staging")).toBe("completed");
    const text = firstText(h);
    expect(text).toContain('<task>\n<workflow name="deploy">\n1. Run the DEPLOY-STEP.\n2. Tag the release.\n</workflow>\n\nto staging\n</task>');
    expect(said(h, "task")).toEqual(["/deploy to staging"]);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("a .tandem/workflows file and a global one are commands too; the workspace's wins a shared name", async () => {
    const h = await open({
      files: { ".tandem/workflows/review.md": "WORKSPACE-REVIEW" },
      global: { "review.md": "GLOBAL-REVIEW", "triage.md": "GLOBAL-TRIAGE" },
      turns: [DONE, DONE],
    });
    expect(await h.run("/review")).toBe("completed");
    expect(firstText(h)).toContain('<workflow name="review">\nWORKSPACE-REVIEW\n</workflow>');
    expect(firstText(h)).not.toContain("GLOBAL-REVIEW");
    expect(await h.run("/triage the new issues")).toBe("completed");
    expect(userTexts(h, 1)[0]).toContain('<workflow name="triage">\nGLOBAL-TRIAGE\n</workflow>\n\nthe new issues');
    const list = await h.controller.slashCommands(await h.controller.workspaceGuard()).list();
    expect(list.map((c) => `${c.kind}:${c.name}:${c.description}`)).toEqual([
      "builtin:newtask:Hand this task's context to a new task",
      "builtin:compact:Condense the conversation now",
      "builtin:newrule:Write a rules file from this conversation",
      "workflow:review:.tandem/workflows/review.md",
      "workflow:triage:global/triage.md",
    ]);
  });

  it("an ignored workflow, a secret-named one and a link out of the workspace are neither offered nor read: the text goes as typed", async () => {
    const away = await mkdtemp(join(tmpdir(), "tandem-away-"));
    outside.push(away);
    await writeFile(join(away, "leak.md"), "OUTSIDE-CONTENT");
    const h = await open({
      files: { ".tandemignore": ".clinerules/workflows/private.md\n", ".clinerules/workflows/private.md": "IGNORED-CONTENT", ".clinerules/workflows/.env.md": "SECRET-CONTENT" },
      turns: [DONE, DONE],
    });
    await symlink(join(away, "leak.md"), join(h.workspace, ".clinerules/workflows/leak.md"));
    expect(await h.run("/private now")).toBe("completed");
    expect(firstText(h)).toContain("<task>\n/private now\n</task>");
    expect(firstText(h)).not.toContain("IGNORED-CONTENT");
    expect(await h.run("/leak now")).toBe("completed");
    expect(userTexts(h, 1)[0]).toContain("<task>\n/leak now\n</task>");
    expect(JSON.stringify(h.server.requests.map((r) => r.body))).not.toMatch(/OUTSIDE-CONTENT|SECRET-CONTENT|IGNORED-CONTENT/);
    const names = (await h.controller.slashCommands(await h.controller.workspaceGuard()).list()).map((c) => c.name);
    expect(names).toEqual(["newtask", "compact", "newrule"]);
  });

  it("an unknown command, a slash later in the text and a path are sent as typed", async () => {
    const h = await open({ files: { ".clinerules/workflows/deploy.md": "DEPLOY-TEXT" }, turns: [DONE, DONE, DONE] });
    for (const typed of ["/foo bar", "please /deploy", "/usr/bin/env is odd"]) expect(await h.run(typed)).toBe("completed");
    expect([0, 1, 2].map((i) => userTexts(h, i)[0])).toEqual(["<task>\n/foo bar\n</task>", "<task>\nplease /deploy\n</task>", "<task>\n/usr/bin/env is odd\n</task>"].map((t) => expect.stringContaining(t)));
    expect(JSON.stringify(h.server.requests.map((r) => r.body))).not.toContain("DEPLOY-TEXT");
  });

  it("a workflow over the size limit is not used, and the person is told why", async () => {
    const h = await open({ files: { ".clinerules/workflows/huge.md": "x".repeat(WORKFLOW_LIMIT_BYTES + 1) } });
    expect(await h.run("/huge")).toBe("completed");
    expect(firstText(h)).toContain("<task>\n/huge\n</task>");
    expect(said(h, "info").join("\n")).toMatch(/The workflow \/huge could not be used \(.clinerules\/workflows\/huge\.md is 64 KB, over the 64 KB limit for a workflow\.\)/);
  });
});

describe("built-in commands", () => {
  it("/newtask tells the model to hand the context to a new task with new_task", async () => {
    const h = await open();
    expect(await h.run("/newtask keep the API notes")).toBe("completed");
    expect(firstText(h)).toMatch(/<task>\n<explicit_instructions type="newtask">\n[^<]*Use the new_task tool now[^<]*\n<\/explicit_instructions>\n\nkeep the API notes\n<\/task>/);
  });

  it("/newrule tells the model to write .clinerules/<name>.md with write_to_file", async () => {
    const h = await open();
    expect(await h.run("/newrule")).toBe("completed");
    expect(firstText(h)).toMatch(/<explicit_instructions type="newrule">\n[^<]*write_to_file[^<]*`\.clinerules\/<name>\.md`[^]*<\/explicit_instructions>\n<\/task>/);
  });

  it("/compact as a new task's first message makes no request and says there is nothing to condense", async () => {
    const h = await open();
    expect(await h.run("/compact")).toBe("aborted");
    expect(h.server.requests).toHaveLength(0);
    expect(said(h, "error")).toEqual([expect.stringContaining("There is nothing to condense")]);
  });
});

describe("commands in replies", () => {
  it("an answer and feedback starting with a workflow command or /newtask are expanded in the next request; the chat keeps them as typed", async () => {
    const question = { text: "<ask_followup_question>\n<question>What next?</question>\n</ask_followup_question>" };
    const replies = { followup: "/deploy with @/notes.txt", completion_result: "/newtask" };
    let completions = 0;
    const answer = (ask: AskMessage) => {
      if (ask.ask === "followup") return { type: "message" as const, text: replies.followup };
      if (ask.ask === "completion_result" && completions++ === 0) return { type: "message" as const, text: replies.completion_result };
      return { type: "yes" as const };
    };
    const h = await open({ answer, turns: [question, DONE, DONE], files: { ".clinerules/workflows/deploy.md": "DEPLOY-STEPS", "notes.txt": "NOTES-CONTENT" } });
    expect(await h.run("help")).toBe("completed");
    expect(JSON.stringify(h.server.requests[0]?.body)).not.toContain("DEPLOY-STEPS");
    const second = lastText(h, 1);
    expect(second).toContain('<answer>\n<workflow name="deploy">\nDEPLOY-STEPS\n</workflow>\n\nwith @/notes.txt\n\n<file_content path="notes.txt">');
    expect(second).toContain("NOTES-CONTENT");
    expect(lastText(h, 2)).toContain('<feedback>\n<explicit_instructions type="newtask">');
    expect(said(h, "user_feedback")).toEqual([replies.followup, replies.completion_result]);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });
});

describe("commands in a Plan-mode reply", () => {
  it("the reply to plan_mode_respond gets its workflow expanded too", async () => {
    const plan = { text: "<plan_mode_respond>\n<response>PLAN?</response>\n</plan_mode_respond>" };
    const reply = { text: "<plan_mode_respond>\n<response>OK</response>\n<needs_more_exploration>true</needs_more_exploration>\n</plan_mode_respond>" };
    let asked = 0;
    const answer = (ask: AskMessage) => (ask.ask === "plan_mode_respond" && asked++ === 0 ? { type: "message" as const, text: "/checklist first" } : { type: "yes" as const });
    const h = await open({ settings: { defaultMode: "plan" }, answer, turns: [plan, reply, DONE], files: { ".clinerules/workflows/checklist.md": "CHECKLIST-STEPS" } });
    await h.start("Plan it");
    await expect.poll(() => h.server.requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(lastText(h, 1)).toContain('<user_message>\n<workflow name="checklist">\nCHECKLIST-STEPS\n</workflow>\n\nfirst\n</user_message>');
  });
});

describe("MCP prompts", () => {
  it("a connected server's prompts are /mcp:server:prompt commands: fetched with getPrompt, the text typed after one is its first argument", async () => {
    const h = await open({ mcp: { servers: { everything: stdio(serverScript("server-everything"), "stdio") } }, turns: [DONE, DONE, DONE] });
    expect((await h.hub!.waitForConnections(15_000)).stillConnecting).toEqual([]);
    const list = await h.controller.slashCommands(await h.controller.workspaceGuard()).list();
    expect(list.filter((c) => c.kind === "mcp").map((c) => c.name)).toEqual(expect.arrayContaining(["mcp:everything:simple-prompt", "mcp:everything:args-prompt"]));
    expect(await h.run("/mcp:everything:simple-prompt and then some")).toBe("completed");
    expect(firstText(h)).toContain('<task>\n<mcp_prompt server="everything" name="simple-prompt">\nThis is a simple prompt without arguments.\n</mcp_prompt>\n\nand then some\n</task>');
    expect(await h.run("/mcp:everything:args-prompt Lisbon")).toBe("completed");
    expect(userTexts(h, 1)[0]).toContain("<mcp_prompt server=\"everything\" name=\"args-prompt\">\nWhat's weather in Lisbon?\n</mcp_prompt>\n</task>");
    // Its required argument missing: the person is told, and the text goes as typed.
    expect(await h.run("/mcp:everything:args-prompt")).toBe("completed");
    expect(userTexts(h, 2)[0]).toContain("<task>\n/mcp:everything:args-prompt\n</task>");
    expect(said(h, "info").join("\n")).toContain("The MCP prompt /mcp:everything:args-prompt needs the argument(s) city");
  });
});
