/**
 * The environment details in the loop: the real Controller and Task, the real SDKs and the
 * scripted model server, real files (and links) in a temp workspace. What the model got is read
 * from the requests the server recorded; the editor and a person's terminal are plain fakes of
 * the host interfaces, the Node terminal runs the task's own commands for real.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/api/model-info";
import type { EditorHost, TerminalActivity, TerminalHost } from "../../src/host/bridge";
import { NodeTerminal } from "../../src/host/node/node-terminal";
import type { AskMessage, AskResponse } from "../../src/shared/messages";
import { historyProblems } from "../support/history-checks";
import type { RecordedRequest } from "../support/script";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";

let harness: Harness | undefined;
const outside: string[] = [];

afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const dir of outside.splice(0)) await rm(dir, { recursive: true, force: true });
});

const DONE = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const listRoot = { text: "<list_files>\n<path>.</path>\n</list_files>" };

async function put(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

async function open(options: Partial<HarnessOptions> & { files?: Record<string, string> }): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [DONE], ...options });
  for (const [name, text] of Object.entries(options.files ?? {})) await put(harness.workspace, name, text);
  return harness;
}

type WireMessage = { role: string; content: string | { type: string; text?: string; content?: unknown }[] };

/** The request's last user message, as the wire carried it (Anthropic or OpenAI chat). */
function lastUserMessage(request: RecordedRequest | undefined): WireMessage | undefined {
  const messages = (request?.body.messages ?? []) as WireMessage[];
  return messages.filter((m) => m.role === "user").at(-1);
}

/** The text of the environment details block that ends the request's last user message. */
function detailsOf(request: RecordedRequest | undefined): string {
  const last = lastUserMessage(request);
  const content = last?.content;
  const text = typeof content === "string" ? content : (content?.at(-1)?.text ?? "");
  const match = /<environment_details>\n[\s\S]*<\/environment_details>$/.exec(text);
  return match?.[0] ?? "";
}

const bodyText = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.messages ?? []);
const count = (text: string, part: string) => text.split(part).length - 1;

describe("environment details in every request", () => {
  it.each(["anthropic", "openai"] as const)("the last user message carries them; the first one lists the workspace, later ones don't (%s)", async (provider) => {
    const h = await open({
      provider,
      turns: [listRoot, DONE],
      files: { "src/app.ts": "x", "README.md": "r", ".gitignore": "build/\n", "build/out.js": "o", ".tandemignore": "private/\n", "private/plan.md": "p", ".env": "KEY=1" },
    });
    expect(await h.run("Look around")).toBe("completed");
    const [first, second] = h.server.requests;
    const one = detailsOf(first);
    const two = detailsOf(second);
    expect(one).not.toBe("");
    expect(two).not.toBe("");
    expect(one).toContain(`# Workspace files (${h.workspace})`);
    // Grouped by folder: the top level's names on one line, src/'s on the next.
    expect(one).toMatch(/^\.\/: .*\bREADME\.md src\/$/m);
    expect(one).toMatch(/^src\/: app\.ts$/m);
    for (const hidden of ["build/", "out.js", "private", "plan.md", ".env"]) expect(one).not.toContain(hidden);
    expect(two).not.toContain("# Workspace files");
    // The time with its zone, to the minute.
    const time = /# Current time\n(\d{4}-\d\d-\d\d \d\d:\d\d) \((?:[^,]+, )?UTC([+-]\d\d:\d\d)\)/.exec(one);
    expect(time).not.toBeNull();
    const offset = -new Date().getTimezoneOffset();
    expect(time?.[2]).toBe(`${offset < 0 ? "-" : "+"}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`);
    // The stored history holds each block as it was sent, and the chat shows none.
    const history = JSON.stringify(h.apiHistory());
    expect(count(history, "<environment_details>")).toBe(2);
    expect(h.messages.some((m) => m.text?.includes("environment_details"))).toBe(false);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("reports the previous request's usage (input + cache + output) against the model's window", async () => {
    const usage = { inputTokens: 1_234, outputTokens: 56, cacheWriteTokens: 7_000, cacheReadTokens: 20_000 };
    const h = await open({ turns: [{ ...listRoot, usage }, DONE] });
    expect(await h.run("Look around")).toBe("completed");
    expect(detailsOf(h.server.requests[0])).not.toContain("# Context window");
    const used = usage.inputTokens + usage.outputTokens + usage.cacheWriteTokens + usage.cacheReadTokens;
    const window = resolveModel("anthropic", "claude-sonnet-5-5").info.contextWindow;
    const percent = Math.round((used / window) * 100);
    expect(detailsOf(h.server.requests[1])).toContain(`# Context window\n${used.toLocaleString("en-US")} of ${window.toLocaleString("en-US")} tokens used (${percent}%)`);
  });

  it("names the editor's files workspace-relative, leaving out ignored ones, also through a link, and files outside", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "tandem-outside-"));
    outside.push(elsewhere);
    await writeFile(join(elsewhere, "other.ts"), "o");
    const editor: EditorHost = { visibleFiles: () => visible, openTabs: () => tabs, problems: () => [] };
    let visible: string[] = [];
    let tabs: string[] = [];
    const h = await open({ editor, files: { ".tandemignore": "secret/\n", "src/a.ts": "a", "src/b.ts": "b", "secret/key.ts": "k", ".env": "K=1" } });
    await symlink(join(h.workspace, "secret", "key.ts"), join(h.workspace, "src", "innocent.ts"));
    await symlink(join(elsewhere, "other.ts"), join(h.workspace, "src", "away.ts"));
    const ws = h.workspace;
    visible = [join(ws, "src/a.ts"), join(ws, "src/innocent.ts")];
    tabs = [join(ws, "src/a.ts"), join(ws, "src/b.ts"), join(ws, "secret/key.ts"), join(ws, ".env"), join(elsewhere, "other.ts"), join(ws, "src/away.ts")];
    expect(await h.run("Go")).toBe("completed");
    const details = detailsOf(h.server.requests[0]);
    expect(details).toContain("# Visible files\nsrc/a.ts\n\n");
    expect(details).toContain("# Other open tabs\nsrc/b.ts\n\n");
    const editorPart = details.slice(0, details.indexOf("# Current time"));
    for (const left of ["innocent", "key.ts", ".env", "other.ts", "away.ts", elsewhere]) expect(editorPart).not.toContain(left);
    // The listing judges links as list_files does: the one into the ignored folder is hidden too.
    expect(details).not.toContain("innocent");
  });

  it("a person's terminal: each output reaches the model once, and a running command is named every round", async () => {
    let activity: TerminalActivity[] = [{ name: "bash", busy: true, lastCommand: "npm run watch", recentOutput: "compiling…\nBUILD-ONE ok\n", outputLength: 24 }];
    const node = new NodeTerminal();
    const terminal: TerminalHost = { run: (c, o) => node.run(c, o), shell: node.shell, activity: () => activity };
    const h = await open({ terminal, turns: [listRoot, listRoot, DONE] });
    await h.start("Watch it");
    await h.server.waitForRequests(1, 5_000);
    activity = [{ name: "bash", busy: true, lastCommand: "npm run watch", recentOutput: "BUILD-ONE ok\nBUILD-TWO failed\n", outputLength: 41 }];
    await h.server.waitForRequests(2, 5_000);
    expect(await h.finished()).toBe("completed");
    const [one, two, three] = h.server.requests.map(detailsOf);
    expect(one).toContain("## bash: running `npm run watch`\nNew output:\ncompiling…\nBUILD-ONE ok");
    expect(two).toContain("BUILD-TWO failed");
    expect(two).not.toContain("BUILD-ONE");
    expect(three).toContain("## bash: running `npm run watch`");
    expect(three).not.toContain("BUILD-");
    expect(count(bodyText(h.server.requests[2]), "BUILD-ONE")).toBe(1);
  });

  it("the task's own command: named in the next request, its output not repeated there nor later", async () => {
    const h = await open({
      turns: [{ text: "<execute_command>\n<command>echo OUT-$((40+2))</command>\n<requires_approval>false</requires_approval>\n</execute_command>" }, listRoot, DONE],
    });
    expect(await h.run("Run it")).toBe("completed");
    const [one, two, three] = h.server.requests.map(detailsOf);
    expect(one).not.toContain("# Terminals");
    expect(two).toContain("## shell: idle, last ran `echo OUT-$((40+2))`\n(its new output is shown above)");
    expect(count(bodyText(h.server.requests[1]), "OUT-42")).toBe(1);
    expect(three).not.toContain("# Terminals");
  });

  it("a resumed request replaces the unanswered one's details instead of adding a second block", async () => {
    const answer = (ask: AskMessage): AskResponse => ({ type: ask.ask === "api_req_failed" ? "no" : "yes" });
    const h = await open({ answer, turns: [listRoot, { kind: "fault", fault: "auth" }, DONE] });
    expect(await h.run("Look around")).toBe("failed");
    const id = h.controller.currentTask?.taskId ?? "";
    await h.controller.resumeTask(id);
    expect(await h.finished()).toBe("completed");
    const resumed = h.server.requests.at(-1);
    const last = lastUserMessage(resumed);
    expect(count(JSON.stringify(last), "<environment_details>")).toBe(1);
    expect(detailsOf(resumed)).toContain("# Workspace files");
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });
});
