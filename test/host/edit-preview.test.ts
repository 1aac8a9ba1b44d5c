/**
 * write_to_file and replace_in_file with a host that has a diff view. The diff view here is a
 * recording stand-in for our own DiffViewHost interface (the VS Code one needs an editor). Like
 * VS Code's, it creates a new file empty when it opens (the editor needs a file) and removes it on
 * revert; it writes the file on save as the editor would, and can play the person editing the proposal.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DiffSession, DiffViewHost } from "../../src/host/bridge";
import { unifiedDiff } from "../../src/host/vscode/line-diff";
import { startHarness } from "../support/task-harness";
import { fakeToolContext, runTool, tempDir, type FakeToolContext } from "../support/tool-context";
import { replaceInFileTool } from "../../src/core/task/tools/replace-in-file";
import type { ApprovalDecision, ToolResult } from "../../src/core/task/tools/types";
import { writeToFileTool } from "../../src/core/task/tools/write-to-file";

class RecordedSession implements DiffSession {
  readonly updates: { proposed: string; final: boolean }[] = [];
  state: "open" | "saved" | "reverted" = "open";
  createdPlaceholder = false;

  constructor(
    readonly absolutePath: string,
    readonly original: string | undefined,
    private readonly view: RecordingDiffView,
  ) {}

  async update(proposed: string, final: boolean): Promise<void> {
    if (this.state !== "open") throw new Error(`update after ${this.state}`);
    this.updates.push({ proposed, final });
  }

  async save() {
    if (this.state !== "open") throw new Error(`save after ${this.state}`);
    const proposed = this.updates.at(-1)?.proposed ?? "";
    const content = this.view.personEdit ? this.view.personEdit(proposed) : proposed;
    await writeFile(this.absolutePath, content);
    this.state = "saved";
    const personEdits = unifiedDiff(proposed, content, { oldLabel: "proposal", newLabel: "saved" });
    return personEdits ? { content, personEdits, newProblems: this.view.problems } : { content, newProblems: this.view.problems };
  }

  async revert(): Promise<void> {
    const wasOpen = this.state === "open";
    this.state = "reverted";
    if (wasOpen && this.createdPlaceholder) await rm(this.absolutePath, { force: true });
  }
}

class RecordingDiffView implements DiffViewHost {
  readonly sessions: RecordedSession[] = [];
  personEdit: ((proposed: string) => string) | undefined;
  problems: string[] = [];
  failOpens = 0;

  async open(absolutePath: string, original: string | undefined): Promise<DiffSession> {
    if (this.failOpens > 0) {
      this.failOpens--;
      throw new Error("the editor could not open the file");
    }
    const session = new RecordedSession(absolutePath, original, this);
    if (!existsSync(absolutePath)) {
      await mkdir(path.dirname(absolutePath), { recursive: true });
      await writeFile(absolutePath, "");
      session.createdPlaceholder = true;
    }
    this.sessions.push(session);
    return session;
  }
}

let root: string;
let ws: string;
let cleanup: () => Promise<void>;
let view: RecordingDiffView;
beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir());
  ws = path.join(root, "ws");
  await mkdir(ws);
  view = new RecordingDiffView();
});
afterEach(() => cleanup());

function context(script: { approvals?: ApprovalDecision[]; signal?: AbortSignal; ignored?: (p: string) => boolean } = {}) {
  const { ctx, log } = fakeToolContext(ws, script);
  const withDiff: FakeToolContext = { ...ctx, host: { ...ctx.host, diffView: view } };
  return { ctx: withDiff, log };
}

const okText = (result: ToolResult) =>
  result.kind === "ok" ? (typeof result.content === "string" ? result.content : result.content.map((b) => ("text" in b ? b.text : "")).join("\n")) : "";

describe("write_to_file in the diff view", () => {
  it("opens one view once the content streams, follows it, and saves the final text on approval", async () => {
    const { ctx, log } = context();
    await writeToFileTool.presentPartial?.({ path: "src/new.ts" }, ctx);
    expect(view.sessions).toHaveLength(0); // nothing to show yet
    await writeToFileTool.presentPartial?.({ path: "src/new.ts", content: "```ts\nexport const a" }, ctx);
    await writeToFileTool.presentPartial?.({ path: "src/new.ts", content: "```ts\nexport const a = 1;" }, ctx);
    const result = await runTool(writeToFileTool, { path: "src/new.ts", content: "```ts\nexport const a = 1;\n```" }, ctx);

    expect(view.sessions).toHaveLength(1);
    const [session] = view.sessions;
    expect(session?.absolutePath).toBe(path.join(ws, "src/new.ts"));
    expect(session?.original).toBeUndefined();
    expect(session?.updates).toEqual([
      { proposed: "export const a", final: false },
      { proposed: "export const a = 1;", final: false },
      { proposed: "export const a = 1;\n", final: true },
    ]);
    expect(log.approvals).toHaveLength(1);
    expect(session?.state).toBe("saved");
    expect(await readFile(path.join(ws, "src/new.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(result).toEqual({ kind: "ok", content: "The content was successfully saved to src/new.ts." });
  });

  it("tells the model what the person changed and which errors appeared", async () => {
    await writeFile(path.join(ws, "a.ts"), "old\n");
    view.personEdit = (proposed) => proposed.replace("let x = 1;", "const x = 1;");
    view.problems = ["line 2: Cannot find name 'y'. [ts 2304]"];
    const { ctx } = context();
    const text = okText(await runTool(writeToFileTool, { path: "a.ts", content: "let x = 1;\ny;\n" }, ctx));
    expect(view.sessions[0]?.original).toBe("old\n");
    expect(text).toContain("The content was successfully saved to a.ts.");
    expect(text).toContain("<person_edits>\n--- proposal\n+++ saved\n@@ -1,2 +1,2 @@\n-let x = 1;\n+const x = 1;\n y;\n</person_edits>");
    expect(text).toContain("The editor now reports new problems in a.ts:\n- line 2: Cannot find name 'y'. [ts 2304]");
  });

  it("reverts the view when the person rejects, and writes nothing", async () => {
    await writeFile(path.join(ws, "keep.txt"), "original\n");
    const { ctx } = context({ approvals: [{ approved: false, feedback: { text: "no" } }] });
    const result = await runTool(writeToFileTool, { path: "keep.txt", content: "replaced" }, ctx);
    expect(result).toEqual({ kind: "rejected", feedback: { text: "no" } });
    expect(view.sessions[0]?.state).toBe("reverted");
    expect(await readFile(path.join(ws, "keep.txt"), "utf8")).toBe("original\n");
  });

  it("reverts a preview left by a call that never ran when another file's edit opens", async () => {
    const { ctx } = context();
    await writeToFileTool.presentPartial?.({ path: "first.txt", content: "abandoned" }, ctx);
    await writeToFileTool.presentPartial?.({ path: "second.txt", content: "kept" }, ctx);
    expect(view.sessions.map((s) => s.state)).toEqual(["reverted", "open"]);
    await runTool(writeToFileTool, { path: "second.txt", content: "kept" }, ctx);
    expect(view.sessions.map((s) => s.state)).toEqual(["reverted", "saved"]);
  });

  it("reverts open previews when disposed, and opens none after", async () => {
    const { ctx } = context();
    await writeToFileTool.presentPartial?.({ path: "x.txt", content: "streaming" }, ctx);
    await ctx.previews.dispose();
    expect(view.sessions[0]?.state).toBe("reverted");
    await writeToFileTool.presentPartial?.({ path: "y.txt", content: "late" }, ctx);
    expect(view.sessions).toHaveLength(1);
  });

  it("opens no preview of a write Plan mode refuses, so not even the editor's placeholder file appears", async () => {
    const content = "line\n".repeat(200);
    const turns = [
      { text: `<write_to_file>\n<path>planned.txt</path>\n<content>\n${content}</content>\n</write_to_file>`, chunkSize: 20, delayMs: 2 },
      { text: "<plan_mode_respond>\n<response>The plan.</response>\n</plan_mode_respond>" },
    ];
    const h = await startHarness({ provider: "anthropic", turns, diffView: view, settings: { defaultMode: "plan" }, answer: () => ({ type: "yes" }) });
    try {
      expect(await h.run("Write")).toBe("completed");
      expect(view.sessions).toHaveLength(0);
      expect(existsSync(path.join(h.workspace, "planned.txt"))).toBe(false);
    } finally {
      await h.dispose();
    }
  });

  it("reverts the preview of a call still streaming when the task is cancelled", async () => {
    const content = "line\n".repeat(400);
    const turns = [{ text: `<write_to_file>\n<path>x.txt</path>\n<content>\n${content}</content>\n</write_to_file>`, chunkSize: 20, delayMs: 5 }];
    const h = await startHarness({ provider: "anthropic", turns, diffView: view });
    try {
      await h.start("Write");
      await vi.waitFor(() => expect(view.sessions[0]?.updates.length).toBeGreaterThan(0), { timeout: 5_000 });
      await h.controller.cancelTask();
      expect(await h.finished()).toBe("aborted");
      await vi.waitFor(() => expect(view.sessions[0]?.state).toBe("reverted"));
    } finally {
      await h.dispose();
    }
  });

  it("reverts the view when the task is cancelled while the person decides", async () => {
    const turns = [{ text: "<write_to_file>\n<path>x.txt</path>\n<content>\nnew\n</content>\n</write_to_file>" }];
    const h = await startHarness({ provider: "anthropic", turns, diffView: view });
    try {
      await h.start("Write");
      await h.waitForAsk("tool");
      expect(view.sessions.at(-1)?.state).toBe("open");
      await h.controller.cancelTask();
      expect(await h.finished()).toBe("aborted");
      await vi.waitFor(() => expect(view.sessions.at(-1)?.state).toBe("reverted"));
    } finally {
      await h.dispose();
    }
  });

  it("shows no preview for an ignored file, and execute still refuses it", async () => {
    const { ctx } = context({ ignored: (p) => p.endsWith(".env") });
    await writeToFileTool.presentPartial?.({ path: ".env", content: "SECRET=1" }, ctx);
    expect(view.sessions).toHaveLength(0);
    await expect(runTool(writeToFileTool, { path: ".env", content: "SECRET=1" }, ctx)).rejects.toThrow();
    expect(view.sessions).toHaveLength(0);
  });

  it("leaves files outside the workspace to the chat approval: no view, nothing created before approval", async () => {
    const { ctx, log } = context({ approvals: [{ approved: false }] });
    await writeToFileTool.presentPartial?.({ path: "../outside/x.txt", content: "x" }, ctx);
    const result = await runTool(writeToFileTool, { path: "../outside/x.txt", content: "x" }, ctx);
    expect(result.kind).toBe("rejected");
    expect(log.approvals[0]?.message.outsideWorkspace).toBe(true);
    expect(view.sessions).toHaveLength(0);
    await expect(readFile(path.join(root, "outside/x.txt"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("retries a view that failed to open while streaming, and reports a second failure", async () => {
    view.failOpens = 1;
    const { ctx } = context();
    await writeToFileTool.presentPartial?.({ path: "f.txt", content: "a" }, ctx);
    await writeToFileTool.presentPartial?.({ path: "f.txt", content: "ab" }, ctx); // no retry while streaming
    expect(view.sessions).toHaveLength(0);
    await runTool(writeToFileTool, { path: "f.txt", content: "abc" }, ctx);
    expect(view.sessions[0]?.state).toBe("saved");

    view.failOpens = 1;
    await expect(runTool(writeToFileTool, { path: "g.txt", content: "x" }, context().ctx)).rejects.toThrow("the editor could not open the file");
  });
});

describe("replace_in_file in the diff view", () => {
  const block = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;
  const FILE = "a\nb\nc\nd\n";

  it("shows the file with the blocks streamed so far, then saves the edit and returns the saved file", async () => {
    await writeFile(path.join(ws, "f.txt"), FILE);
    const { ctx } = context();
    await replaceInFileTool.presentPartial?.({ path: "f.txt", diff: "------- SEARCH\nb" }, ctx);
    expect(view.sessions).toHaveLength(0); // the diff changes nothing yet
    const diff = block("b", "B");
    await replaceInFileTool.presentPartial?.({ path: "f.txt", diff }, ctx);
    view.personEdit = (proposed) => proposed.replace("d\n", "D\n");
    const text = okText(await runTool(replaceInFileTool, { path: "f.txt", diff }, ctx));

    const [session] = view.sessions;
    expect(session?.original).toBe(FILE);
    expect(session?.updates.at(0)).toEqual({ proposed: "a\nB\nc\nd\n", final: false });
    expect(session?.updates.at(-1)).toEqual({ proposed: "a\nB\nc\nd\n", final: true });
    expect(await readFile(path.join(ws, "f.txt"), "utf8")).toBe("a\nB\nc\nD\n");
    expect(text).toContain("The edit to f.txt was applied (1 block).");
    expect(text).toMatch(/\n2\|B\n3\|c\n4\|D\n/); // the file as saved, with the person's change
    expect(text).toContain("-d\n+D");
  });

  it("refuses a diff that does not fit before opening anything", async () => {
    await writeFile(path.join(ws, "f.txt"), FILE);
    const { ctx, log } = context();
    await expect(runTool(replaceInFileTool, { path: "f.txt", diff: block("zzz", "y") }, ctx)).rejects.toThrow(/f.txt was not changed/);
    expect(view.sessions).toHaveLength(0);
    expect(log.approvals).toHaveLength(0);
  });

  it("reverts on rejection", async () => {
    await writeFile(path.join(ws, "f.txt"), FILE);
    const { ctx } = context({ approvals: [{ approved: false }] });
    const result = await runTool(replaceInFileTool, { path: "f.txt", diff: block("c", "C") }, ctx);
    expect(result.kind).toBe("rejected");
    expect(view.sessions[0]?.state).toBe("reverted");
    expect(await readFile(path.join(ws, "f.txt"), "utf8")).toBe(FILE);
  });
});
