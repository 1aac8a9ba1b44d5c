/**
 * @-mentions through the whole loop: the real Controller and Task, the real SDKs and the
 * scripted model server, real files and real git in a temp workspace, a local web site on
 * 127.0.0.1. What each mention expands into is read from the request the server recorded; the
 * chat must keep the text as typed.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HostBridge, TerminalActivity, WorkspaceProblem } from "../../src/host/bridge";
import type { AskMessage } from "../../src/shared/messages";
import { buildPdf } from "../fixtures/documents/build-pdf";
import { historyProblems } from "../support/history-checks";
import type { RecordedRequest } from "../support/script";
import { approveAll, startHarness, type Harness, type HarnessOptions } from "../support/task-harness";
import { ARTICLE_SENTENCE, startTestSite, type TestSite } from "../support/web-fetch-test-server";
import { DEFAULT_AUTO_APPROVAL, DEFAULT_SANDBOX_SETTINGS } from "../../src/shared/settings";

let harness: Harness | undefined;
let site: TestSite;
const outside: string[] = [];

beforeAll(async () => (site = await startTestSite()));
afterAll(() => site.close());
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  for (const dir of outside.splice(0)) await rm(dir, { recursive: true, force: true });
});

const DONE = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };

async function open(options: Partial<HarnessOptions> & { files?: Record<string, string | Buffer> } = {}): Promise<Harness> {
  harness = await startHarness({ provider: "anthropic", answer: approveAll, turns: [DONE], ...options });
  for (const [name, text] of Object.entries(options.files ?? {})) await put(harness.workspace, name, text);
  return harness;
}

async function put(root: string, name: string, text: string | Buffer): Promise<void> {
  await mkdir(join(root, name, ".."), { recursive: true });
  await writeFile(join(root, name), text);
}

/** The text of the last user message of a request, as sent (Anthropic blocks or OpenAI content). */
function lastUserText(request: RecordedRequest | undefined): string {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

/** The first request's user text, its JSON escapes undone for readable assertions. */
function firstText(h: Harness): string {
  const request = h.server.requests[0];
  const messages = (request?.body.messages ?? []) as { role: string; content: string | { type: string; text?: string }[] }[];
  const first = messages.find((m) => m.role === "user");
  if (!first) return "";
  return typeof first.content === "string" ? first.content : first.content.map((b) => b.text ?? "").join("\n");
}

const taskRow = (h: Harness) => h.messages.find((m) => m.type === "say" && m.say === "task")?.text;

describe("@-mentions in the task", () => {
  it.each(["anthropic", "openai"] as const)("a file comes with its path and numbered text, a folder as its listing and its small files; the chat keeps the text as typed (%s)", async (provider) => {
    const h = await open({ provider, files: { "src/a.ts": "export const a = 1;\nexport const b = 2;\n", "src/b.ts": "b", "src/deep/c.ts": "c", "My Docs/notes one.txt": "SPACED-NOTE" } });
    const typed = "look at @/src/a.ts, and @/src/ then @/My\\ Docs/notes\\ one.txt.";
    expect(await h.run(typed)).toBe("completed");
    const sent = firstText(h);
    expect(sent).toContain(`<task>\n${typed}\n</task>`);
    expect(sent).toMatch(/<file_content path="src\/a\.ts">\n1\|export const a = 1;\n2\|export const b = 2;\n<\/file_content>/);
    expect(sent).toMatch(/<folder_content path="src\/">\nsrc\/a\.ts\nsrc\/b\.ts\nsrc\/deep\/\n\n<file_content path="src\/a\.ts">\n1\|export const a = 1;\n[\s\S]*<file_content path="src\/b\.ts">\n1\|b\n<\/file_content>\n\n\[Sub-folders are listed, not read[^\]]*\]\n<\/folder_content>/);
    expect(sent).toContain('<file_content path="My Docs/notes one.txt">');
    expect(sent).toContain("SPACED-NOTE");
    // The blocks follow the task, in the order mentioned.
    expect(sent.indexOf("</task>")).toBeLessThan(sent.indexOf("<file_content"));
    expect(sent.indexOf('path="src/a.ts"')).toBeLessThan(sent.indexOf('path="src/"'));
    expect(taskRow(h)).toBe(typed);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("a PDF reads as its text, as read_file shows it; a binary file and a missing one become notes, and the message still goes", async () => {
    const h = await open({ files: { "docs/tides.pdf": buildPdf([["High water 06:12"]]), "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) } });
    expect(await h.run("see @/docs/tides.pdf @/logo.png @/nope.ts")).toBe("completed");
    const sent = firstText(h);
    expect(sent).toMatch(/1\|--- page 1 of 1 ---\n2\|High water 06:12/);
    expect(sent).toMatch(/<file_content path="logo\.png">\n\[Not included: logo\.png is a binary file/);
    expect(sent).toContain('<file_content path="nope.ts">\n[Not included: there is no file or folder nope.ts in the workspace.]');
  });

  it("an ignored file, a secret file and a link to a secret are refused, never read; a path out of the workspace too", async () => {
    const away = await mkdtemp(join(tmpdir(), "tandem-away-"));
    outside.push(away);
    await writeFile(join(away, "outside.txt"), "OUTSIDE-CONTENT");
    const h = await open({ files: { ".tandemignore": "private/\n", "private/plan.md": "IGNORED-CONTENT", ".env": "API_KEY=SECRET-CONTENT", "ok.txt": "fine" } });
    await symlink(join(h.workspace, ".env"), join(h.workspace, "innocent.txt"));
    await symlink(join(away, "outside.txt"), join(h.workspace, "away.txt"));
    expect(await h.run("read @/private/plan.md @/.env @/innocent.txt @/away.txt @/../x and @/ok.txt")).toBe("completed");
    const sent = JSON.stringify(h.server.requests[0]?.body);
    for (const secret of ["IGNORED-CONTENT", "SECRET-CONTENT", "OUTSIDE-CONTENT"]) expect(sent).not.toContain(secret);
    const text = firstText(h);
    expect(text).toMatch(/<file_content path="private\/plan\.md">\n\[Not included: private\/plan\.md is ignored by \.tandemignore/);
    expect(text).toMatch(/<file_content path="\.env">\n\[Not included: \.env looks like a secret file/);
    expect(text).toMatch(/<file_content path="innocent\.txt">\n\[Not included: innocent\.txt leads through a symbolic link to \.env/);
    expect(text).toMatch(/<file_content path="away\.txt">\n\[Not included: away\.txt leads through a symbolic link to .*, outside the workspace/);
    expect(text).toMatch(/<file_content path="\.\.\/x">\n\[Not included: \.\.\/x is outside the workspace/);
    expect(text).toMatch(/1\|fine/);
  });

  it("@problems lists the editor's problems by file, ignored files left out; @terminal brings the terminals' recent output", async () => {
    let root = "";
    const problems = (): WorkspaceProblem[] => [
      { path: join(root, "src/a.ts"), line: 2, severity: "error", message: "Type 'string' is not assignable\nto type 'number'.", source: "ts", code: "2322" },
      { path: join(root, "src/a.ts"), line: 9, severity: "warning", message: "unused variable", source: "eslint" },
      { path: join(root, "private/x.ts"), line: 0, severity: "error", message: "PRIVATE-PROBLEM" },
      { path: join(root, "b.ts"), line: 0, severity: "warning", message: "deprecated" },
    ];
    const activity = (): TerminalActivity[] => [{ name: "bash", busy: false, lastCommand: "npm test", recentOutput: "FAIL src/a.test.ts\n1 failed" }];
    const wrapHost = (host: HostBridge): HostBridge => {
      root = host.workspace.roots[0]?.path ?? "";
      const terminal = host.terminal;
      return {
        ...host,
        editor: { visibleFiles: () => [], openTabs: () => [], problems },
        terminal: { run: (command, options) => terminal.run(command, options), shell: terminal.shell, activity },
      };
    };
    const h = await open({ wrapHost, files: { ".tandemignore": "private/\n" } });
    expect(await h.run("fix @problems (see @terminal)")).toBe("completed");
    const text = firstText(h);
    expect(text).toContain(
      "<problems>\nsrc/a.ts\n  3: error [ts 2322] Type 'string' is not assignable to type 'number'.\n  10: warning [eslint] unused variable\nb.ts\n  1: warning deprecated\n[1 problems in ignored files or outside the workspace left out.]\n</problems>",
    );
    expect(text).not.toContain("PRIVATE-PROBLEM");
    expect(text).toContain("<terminal_output>\n## bash\n$ npm test\nFAIL src/a.test.ts\n1 failed\n</terminal_output>");
  });

  it("@problems and @terminal where the host reports neither (the CLI's) say so", async () => {
    const h = await open();
    expect(await h.run("@problems @terminal")).toBe("completed");
    const text = firstText(h);
    expect(text).toContain("<problems>\n[Not included: this host has no editor that reports problems.]\n</problems>");
    expect(text).toMatch(/<terminal_output>\n(\[Not included: this host does not report its terminals\.\]|No terminal is open\.)\n<\/terminal_output>/);
  });
});

describe("@git-changes and @<commit>", () => {
  const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });

  it("the working tree's diff against HEAD, and a commit's message and diff; secret files left out of both", async () => {
    const h = await open({ files: { "src/a.ts": "one\n", ".env": "TOKEN=OLD-SECRET\n" } });
    const ws = h.workspace;
    git(ws, "init", "-q");
    git(ws, "add", "-A");
    git(ws, "commit", "-q", "-m", "First commit", "-m", "Adds a.ts.");
    await writeFile(join(ws, "src/a.ts"), "one\nTWO-ADDED\n");
    await writeFile(join(ws, ".env"), "TOKEN=NEW-SECRET\n");
    await writeFile(join(ws, "new.txt"), "untracked\n");
    git(ws, "add", "src/a.ts", ".env");
    git(ws, "commit", "-q", "-m", "Second commit");
    const second = git(ws, "rev-parse", "HEAD").trim();
    await writeFile(join(ws, "src/a.ts"), "one\nTWO-ADDED\nTHREE-UNCOMMITTED\n");
    await writeFile(join(ws, ".env"), "TOKEN=NEWEST-SECRET\n");

    expect(await h.run(`what changed? @git-changes and @${second.slice(0, 10)}, not @abcdef1234`)).toBe("completed");
    const text = firstText(h);
    const changes = /<git_changes>\n([\s\S]*?)\n<\/git_changes>/.exec(text)?.[1] ?? "";
    expect(changes).toContain("Status:\n M src/a.ts\n?? new.txt");
    expect(changes).toContain("+THREE-UNCOMMITTED");
    expect(changes).toContain("[1 ignored or secret file left out of the diff.]");
    const commit = new RegExp(`<commit hash="${second}">\\n([\\s\\S]*?)\\n</commit>`).exec(text)?.[1] ?? "";
    expect(commit).toContain(`commit ${second}`);
    expect(commit).toContain("Second commit");
    expect(commit).toContain("+TWO-ADDED");
    expect(commit).toContain("[1 ignored or secret file left out of the diff.]");
    expect(text).toContain('<commit hash="abcdef1234">\n[Not included: there is no commit abcdef1234 in this repository');
    expect(JSON.stringify(h.server.requests[0]?.body)).not.toMatch(/SECRET/);
  });

  it("outside a repository the note says so", async () => {
    const h = await open();
    expect(await h.run("@git-changes")).toBe("completed");
    expect(firstText(h)).toMatch(/<git_changes>\n\[Not included: the workspace is not in a git repository/);
  });
});

describe("@https://… mentions", () => {
  it("asks the web_fetch approval; approved, the page's readable text follows", async () => {
    const url = site.url("/article");
    const h = await open();
    expect(await h.run(`summarise @${url}.`)).toBe("completed");
    const ask = h.asks.find((a) => a.ask === "tool");
    expect(ask?.tool).toMatchObject({ tool: "web_fetch", content: url });
    const text = firstText(h);
    expect(text).toContain(`<url_content url="${url}">\nURL: ${url}`);
    expect(text).toContain(ARTICLE_SENTENCE);
  });

  it("denied, the page is not fetched and the note says so; the auto-approval switch fetches without asking", async () => {
    const path = `/article?denied=${Date.now()}`;
    const deny = (ask: AskMessage) => (ask.ask === "tool" ? { type: "no" as const } : { type: "yes" as const });
    const h = await open({ answer: deny });
    const before = site.requests.length;
    expect(await h.run(`read @${site.baseUrl}${path}`)).toBe("completed");
    expect(site.requests.slice(before)).toEqual([]);
    expect(firstText(h)).toContain(`<url_content url="${site.baseUrl}${path}">\n[Not included: the person declined to fetch it, so the page was not fetched.]\n</url_content>`);
    await harness?.dispose();

    // The site is on 127.0.0.1: the switch fetches it unasked once the person lists that host.
    const auto = await open({ answer: deny, settings: { autoApproval: { ...DEFAULT_AUTO_APPROVAL, useBrowser: true }, sandbox: { ...DEFAULT_SANDBOX_SETTINGS, allowedDomains: ["127.0.0.1"] } } });
    expect(await auto.run(`read @${site.url("/plain")}`)).toBe("completed");
    expect(auto.asks.some((a) => a.ask === "tool")).toBe(false);
    expect(firstText(auto)).toContain("plain text, as sent");
  });
});

describe("@-mentions in replies", () => {
  it("an answer to a question and feedback on the result get their mentions expanded in the next request; the chat keeps the text as typed", async () => {
    const question = { text: "<ask_followup_question>\n<question>Which file?</question>\n</ask_followup_question>" };
    const replies = { followup: "this one: @/src/b.ts", completion_result: "also @/c.txt please" };
    let completions = 0;
    const answer = (ask: AskMessage) => {
      if (ask.ask === "followup") return { type: "message" as const, text: replies.followup };
      if (ask.ask === "completion_result" && completions++ === 0) return { type: "message" as const, text: replies.completion_result };
      return { type: "yes" as const };
    };
    const h = await open({ answer, turns: [question, DONE, DONE], files: { "src/b.ts": "B-CONTENT", "c.txt": "C-CONTENT" } });
    expect(await h.run("help")).toBe("completed");
    expect(lastUserText(h.server.requests[0])).not.toContain("B-CONTENT");
    const second = lastUserText(h.server.requests[1]);
    expect(second).toContain("this one: @/src/b.ts");
    expect(second).toContain("B-CONTENT");
    expect(second).toContain('<file_content path=\\"src/b.ts\\">');
    const third = lastUserText(h.server.requests[2]);
    expect(third).toContain("C-CONTENT");
    expect(third).not.toContain("B-CONTENT");
    const feedback = h.messages.filter((m) => m.type === "say" && m.say === "user_feedback").map((m) => m.text);
    expect(feedback).toEqual([replies.followup, replies.completion_result]);
    expect(historyProblems(h.apiHistory())).toEqual([]);
  });

  it("feedback on a rejected tool carries its mention's content", async () => {
    const write = { text: "<write_to_file>\n<path>x.txt</path>\n<content>x</content>\n</write_to_file>" };
    const answer = (ask: AskMessage) => (ask.ask === "tool" ? { type: "no" as const, text: "follow @/style.md" } : { type: "yes" as const });
    const h = await open({ answer, turns: [write, DONE], files: { "style.md": "STYLE-GUIDE" } });
    expect(await h.run("write x")).toBe("completed");
    const second = lastUserText(h.server.requests[1]);
    expect(second).toContain("follow @/style.md");
    expect(second).toContain("STYLE-GUIDE");
  });

  it("a reply to a reopened task carries its mention's content", async () => {
    let results = 0;
    // The first result is accepted; the reopened task's result gets the reply; the next is accepted.
    const answer = (ask: AskMessage) => (ask.ask === "completion_result" && ++results === 2 ? { type: "message" as const, text: "now @/later.md" } : { type: "yes" as const });
    const h = await open({ answer, turns: [DONE, DONE], files: { "later.md": "LATER-CONTENT" } });
    expect(await h.run("first")).toBe("completed");
    const id = h.controller.currentTask!.taskId;
    await h.controller.clearTask();
    await h.controller.resumeTask(id);
    expect(await h.finished()).toBe("completed");
    const sent = lastUserText(h.server.requests[1]);
    expect(sent).toContain("now @/later.md");
    expect(sent).toContain("LATER-CONTENT");
  });
});
