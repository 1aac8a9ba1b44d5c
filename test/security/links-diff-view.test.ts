/**
 * Links and the editor's diff view (our own DiffViewHost interface, recorded: the VS Code one
 * needs an editor). The view is opened on the real path, the one the checks judged, so saving
 * writes exactly that file; a link to a secret never gets a view; and a link made while the
 * person decides stops the save instead of writing through it (and, without a view, stops the
 * read or write the same way).
 */
import { lstat, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IgnoreController } from "../../src/core/ignore/ignore-controller";
import { fakeToolContext, runTool, tempDir, type FakeToolContext } from "../support/tool-context";
import { readFileTool } from "../../src/core/task/tools/read-file";
import { replaceInFileTool } from "../../src/core/task/tools/replace-in-file";
import { writeToFileTool } from "../../src/core/task/tools/write-to-file";
import type { DiffSession, DiffViewHost } from "../../src/host/bridge";

const SECRET = "DIFF_VIEW_SECRET_31f0";

class RecordingDiffView implements DiffViewHost {
  readonly opened: string[] = [];
  readonly saved: string[] = [];
  readonly reverted: string[] = [];

  async open(absolutePath: string): Promise<DiffSession> {
    this.opened.push(absolutePath);
    let proposed = "";
    return {
      update: async (text) => {
        proposed = text;
      },
      // As the editor does: write the proposal to the path the view was opened on.
      save: async () => {
        await writeFile(absolutePath, proposed);
        this.saved.push(absolutePath);
        return { content: proposed, newProblems: [] };
      },
      revert: async () => {
        this.reverted.push(absolutePath);
      },
    };
  }
}

let ws: string;
let cleanup: () => Promise<void>;
let guard: IgnoreController;
let view: RecordingDiffView;

beforeEach(async () => {
  ({ dir: ws, cleanup } = await tempDir("tandem-links-diff-"));
  await writeFile(path.join(ws, ".env"), `TOKEN=${SECRET}\n`);
  await mkdir(path.join(ws, "docs"));
  await writeFile(path.join(ws, "docs", "notes.md"), "old\n");
  guard = await IgnoreController.create(ws);
  view = new RecordingDiffView();
});
afterEach(async () => {
  guard.dispose();
  await cleanup();
});

/** A tool context with the diff view and the real guard; `whileDeciding` runs during the approval. */
function context(whileDeciding?: () => Promise<void>, withView = true): FakeToolContext {
  const { ctx } = fakeToolContext(ws, { ignored: (p) => guard.isIgnored(p) });
  return {
    ...ctx,
    host: withView ? { ...ctx.host, diffView: view } : ctx.host,
    approve: async (request) => {
      await whileDeciding?.();
      return ctx.approve(request);
    },
  };
}

describe("links and the diff view", () => {
  it("opens and saves the real file, leaving the link a link", async () => {
    await symlink(path.join("docs", "notes.md"), path.join(ws, "notes.md"));
    const result = await runTool(writeToFileTool, { path: "notes.md", content: "new" }, context());
    expect(result.kind).toBe("ok");
    expect(view.opened).toEqual([path.join(ws, "docs", "notes.md")]);
    expect(await readFile(path.join(ws, "docs", "notes.md"), "utf8")).toBe("new\n");
    expect((await lstat(path.join(ws, "notes.md"))).isSymbolicLink()).toBe(true);
  });

  it("opens no view, while streaming or after, for a link to .env", async () => {
    await symlink(".env", path.join(ws, "notes"));
    const ctx = context();
    await writeToFileTool.presentPartial?.({ path: "notes", content: "TOKEN=x" }, ctx);
    await expect(runTool(writeToFileTool, { path: "notes", content: "TOKEN=x" }, ctx)).rejects.toThrow(
      "notes leads through a symbolic link to .env, which looks like a secret file",
    );
    await replaceInFileTool.presentPartial?.({ path: "notes", diff: "------- SEARCH\nTOKEN" }, ctx);
    expect(view.opened).toEqual([]);
    expect(await readFile(path.join(ws, ".env"), "utf8")).toBe(`TOKEN=${SECRET}\n`);
  });

  it.each([
    ["write_to_file", () => runTool(writeToFileTool, { path: "docs/notes.md", content: "pwned" }, context(swapForLink))],
    ["replace_in_file", () => runTool(replaceInFileTool, { path: "docs/notes.md", diff: "------- SEARCH\nold\n=======\npwned\n+++++++ REPLACE" }, context(swapForLink))],
  ])("%s does not save through a link made while the person decided", async (_tool, run) => {
    await expect(run()).rejects.toThrow("now leads somewhere else than when it was checked");
    expect(view.saved).toEqual([]);
    expect(view.reverted).toEqual([path.join(ws, "docs", "notes.md")]);
    expect(await readFile(path.join(ws, ".env"), "utf8")).toBe(`TOKEN=${SECRET}\n`);
  });
});

describe("links made while the person decides, without a diff view", () => {
  it.each([
    ["read_file", () => runTool(readFileTool, { path: "docs/notes.md" }, context(swapForLink, false))],
    ["write_to_file", () => runTool(writeToFileTool, { path: "docs/notes.md", content: "pwned" }, context(swapForLink, false))],
    ["replace_in_file", () => runTool(replaceInFileTool, { path: "docs/notes.md", diff: "------- SEARCH\nold\n=======\npwned\n+++++++ REPLACE" }, context(swapForLink, false))],
  ])("%s neither reads nor writes through it", async (_tool, run) => {
    await expect(run()).rejects.toThrow("now leads somewhere else than when it was checked");
    expect(await readFile(path.join(ws, ".env"), "utf8")).toBe(`TOKEN=${SECRET}\n`);
  });
});

/** What a command left running in the background could do while the person reads the proposal. */
async function swapForLink(): Promise<void> {
  await rm(path.join(ws, "docs", "notes.md"));
  await symlink(path.join(ws, ".env"), path.join(ws, "docs", "notes.md"));
}
